#!/bin/bash
# ir.sh BIN BENCHREGEX N1 N2: instructions per op, from valgrind's totals at N1 and N2 iterations.
bin=$1 re=$2 n1=${3:-1000} n2=${4:-5000}
ir() { GOGC=off valgrind --tool=lackey --basic-counts=yes "$bin" -test.run '^$' -test.bench "$re" -test.benchtime "${1}x" -test.cpu 1 2>&1 | awk '/guest instrs:/{gsub(",","",$NF); print $NF}'; }
a=$(ir $n1); b=$(ir $n2)
echo "$(basename $bin) $re: $(( (b-a)/(n2-n1) )) instructions/op"
