#!/usr/bin/env bash
# Interleaved rounds: the test binary of 700013e (before) and of the branch (after).
set -eu
cd /tmp/reader-bench
ROUNDS=${ROUNDS:-10}
rm -f decode-before.txt decode-after.txt ck-before.txt ck-after.txt
for i in $(seq "$ROUNDS"); do
  echo "round $i, load $(cut -d' ' -f1-3 /proc/loadavg)" >> load.txt
  for b in before after; do
    ./$b.test -test.run '^$' -test.bench '^BenchmarkDecode$/^payload=/^approach=(generated|floor)$' -test.benchtime 0.5s -test.count 1 -test.benchmem >> decode-$b.txt
  done
  for b in old new; do
    ./tm-$b.test -test.run '^$' -test.bench '^BenchmarkCheckKeys$/.*/1KiB' -test.benchtime 0.2s -test.count 1 >> ck-$b.txt
  done
done
