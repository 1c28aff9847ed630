#!/usr/bin/env bash
# ab.sh OUT COUNT PATTERN name=binary... runs the benchmarks matching PATTERN in each
# test binary, COUNT interleaved rounds (the order reversed every other round), each
# binary's results appended to OUT/<name>.txt; BT is the benchtime (default 300ms).
# The binaries of cpu/: `go test -c` in bench of 9f512a7's runtime with a4ef626's
# bench/*_test.go (before), and of a4ef626 (after).
set -eu
out=$1; count=$2; pat=$3; shift 3
mkdir -p "$out"
for i in $(seq "$count"); do
	echo "round $i of $count, load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
	sides=("$@")
	if [ $((i % 2)) = 0 ]; then
		sides=()
		for ((k = $#; k >= 1; k--)); do sides+=("${!k}"); done
	fi
	for nb in "${sides[@]}"; do
		"${nb#*=}" -test.run '^$' -test.bench "$pat" -test.benchtime "${BT:-300ms}" -test.count 1 \
			-test.benchmem | grep '^Benchmark' >> "$out/${nb%%=*}.txt"
	done
done
