#!/bin/bash
# instructions.sh BIN payload approach N: instructions per decode of BenchmarkDecode, (Ir(2N) - Ir(N)) / N, in callgrind; BIN is a test binary of bench (go test -c -o bench.test .)
bin=$1 p=$2 a=$3 n=$4
ir() {
  GODEBUG=asyncpreemptoff=1 GOGC=off GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    $bin -test.run '^$' -test.bench "^BenchmarkDecode\$/^payload=$p\$/^approach=$a\$" -test.benchtime ${1}x 2>&1 | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*'
}
a1=$(ir $n); a2=$(ir $((2*n)))
echo "$p $a $(( (a2-a1)/n ))"
