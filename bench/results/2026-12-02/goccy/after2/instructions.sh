#!/bin/bash
# instructions.sh BIN payload N: instructions per decode spent in toolgen's own code: the
# exclusive Ir of every function whose source is under the checkout (runtime/..., the
# generated bench code) while the generated approach runs, Go's allocator, collector and
# scheduler left out; callgrind, (Ir(2N) - Ir(N)) / N.
bin=$1 p=$2 n=$3 root=${ROOT:-$(git rev-parse --show-toplevel)/}
ir() {
  out=${TMPDIR:-/tmp}/instructions.$$.$1.out
  GODEBUG=asyncpreemptoff=1 GOGC=off GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=$out \
    "--toggle-collect=${TOGGLE:-github.com/toolgen/toolgen/bench.generated*.func1}" \
    $bin -test.run '^$' -test.bench "^BenchmarkDecode\$/^payload=$p\$/^approach=${APPROACH:-generated}\$" -test.benchtime ${1}x >/dev/null 2>&1
  callgrind_annotate --inclusive=no --threshold=100 --auto=no $out 2>/dev/null | grep "$root" | awk '{gsub(",","",$1); s+=$1} END {print s}'
  rm -f $out
}
a1=$(ir $n); a2=$(ir $((2*n)))
echo "$p $(( (a2-a1)/n ))"
