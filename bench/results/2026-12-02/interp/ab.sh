#!/bin/bash
# usage: ab.sh ROUNDS OUTDIR benchtime binA nameA binB nameB ...
rounds=$1; outdir=$2; bt=$3; shift 3
mkdir -p $outdir
cd "$(dirname "$0")/../../.."  # bench
args=("$@")
for r in $(seq $rounds); do
  for ((i=0;i<${#args[@]};i+=2)); do
    ${args[i]} -test.run '^$' -test.bench "BenchmarkDynamic" -test.benchmem -test.benchtime $bt -test.count 1 | grep -E '^Benchmark|^goos|^goarch|^pkg|^cpu' >> $outdir/${args[i+1]}.txt
  done
  uptime >> $outdir/uptime.txt
done
