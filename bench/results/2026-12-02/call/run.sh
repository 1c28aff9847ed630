#!/usr/bin/env bash
# run.sh measures Toolset.Call's fixed cost (issue 24, item 1) before and after this
# round's changes: BenchmarkCall of the test binaries of two commits, in interleaved
# rounds (before, after, then after, before, ...), so that drift in the machine's speed
# lands on both. BenchmarkCall runs each payload of bench and bench/shapes three ways:
# path=decode, the bare generated decode; path=call, Toolset.Call (the tool on a
# goroutine of its own); path=call_inline, Toolset.Call with WithInlineCalls(true).
# Both binaries are built with the after side's bench/*_test.go (OWN_BENCH=1: each
# side's own), whose BenchmarkCall also reports cpu-ns/op, the process's CPU time per
# call, which the time other work on the machine takes counts far less than ns/op.
#
#   bench/results/2026-12-02/call/run.sh                 # 12 rounds of 1s
#   COUNT=12 BENCHTIME=1s BASE=9f512a7 HEAD=HEAD OUT=/tmp/call run.sh
#   IR=1 run.sh          # also instructions per call (valgrind), which no load changes
#
# Results, in OUT (default: this directory): before.txt, after.txt, machine.txt, and
# summary.txt with benchstat's tables (before against after) and the ratios of each
# path to the decode, medians side by side; with IR=1, instructions.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
COUNT=${COUNT:-12}
BENCHTIME=${BENCHTIME:-1s}
BASE=${BASE:-9f512a7} # the commit before this round's work on Call
HEAD=${HEAD:-HEAD}
OUT=${OUT:-$here}
IR=${IR:-0}
IR_PAYLOADS=${IR_PAYLOADS:-weather transactions batch alarm logs contacts}
BENCHSTAT=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

for side in after before; do
	rev=$BASE
	[ "$side" = after ] && rev=$HEAD
	mkdir -p "$tmp/$side"
	git -C "$root" archive "$rev" | tar -x -C "$tmp/$side"
	if [ "$side" = before ] && [ -z "${OWN_BENCH:-}" ]; then
		# The measurement is the after side's (its BenchmarkCall reports cpu-ns/op);
		# what it measures, runtime/, is each side's own. OWN_BENCH=1 keeps BASE's.
		cp "$tmp/after/bench/"*_test.go "$tmp/before/bench/"
	fi
	# bench/thousand is generated, not committed: BenchmarkCall does not use it, but
	# the package's tests import it.
	(cd "$tmp/$side/bench" && go generate ./thousand >/dev/null && go test -c -o "$tmp/$side.test" .)
	echo "$side: $(git -C "$root" rev-parse --short "$rev")" >> "$tmp/commits"
done

{
	echo "date: $(date -u +%FT%TZ)"
	cat "$tmp/commits"
	echo "nproc: $(nproc)"
	grep -m1 'model name' /proc/cpuinfo | sed 's/\t*:/:/'
	go version
	echo "command: COUNT=$COUNT BENCHTIME=$BENCHTIME BASE=$BASE HEAD=$HEAD IR=$IR run.sh"
	echo "load average (1, 5, 15 min) before: $(load)"
} > "$OUT/machine.txt"
rm -f "$OUT/before.txt" "$OUT/after.txt"
cd "$root/bench" # the benchmarks read nothing from it, but run where they were built
for i in $(seq "$COUNT"); do
	echo "round $i of $COUNT, load average $(load)" | tee -a "$OUT/machine.txt" >&2
	order="before after"
	[ $((i % 2)) = 0 ] && order="after before"
	for side in $order; do
		"$tmp/$side.test" -test.run '^$' -test.bench '^BenchmarkCall$' -test.benchtime "$BENCHTIME" \
			-test.count 1 -test.benchmem >> "$OUT/$side.txt"
	done
done

if [ "$IR" != 0 ]; then
	# Instructions per call: the difference of two runs of N1 and N2 calls, with the
	# collector off (its share depends on the heap, not on the call), one thread.
	N1=${N1:-2000}
	N2=${N2:-22000}
	instr() { # binary, pattern, calls
		GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file=/dev/null "$1" -test.run '^$' -test.bench "$2" -test.benchtime "$3x" 2>&1 |
			sed -n 's/.*I *refs: *//p' | tr -d ,
	}
	{
		echo "instructions per call (valgrind cachegrind, GOGC=off, GOMAXPROCS=1; ($N2 calls - $N1 calls) / $((N2 - N1)))"
		for p in $IR_PAYLOADS; do
			for path in decode call call_inline; do
				for side in before after; do
					pat="^BenchmarkCall\$/^payload=$p\$/^path=$path\$"
					a=$(instr "$tmp/$side.test" "$pat" "$N1")
					b=$(instr "$tmp/$side.test" "$pat" "$N2")
					echo "payload=$p path=$path $side $(((b - a) / (N2 - N1)))"
				done
			done
		done
	} > "$OUT/instructions.txt"
fi
echo "load average (1, 5, 15 min) after: $(load)" >> "$OUT/machine.txt"

{
	cat "$OUT/machine.txt"
	echo
	echo "## BenchmarkCall, before against after"
	"${BENCHSTAT[@]}" "$OUT/before.txt" "$OUT/after.txt"
	for side in before after; do
		echo
		echo "## $side: each path against the bare decode (ns/op)"
		go run ./internal/ratios -col path -base decode "$OUT/$side.txt"
	done
	for side in before after; do
		echo
		echo "## $side: each path against the bare decode (cpu-ns/op)"
		go run ./internal/ratios -col path -base decode -unit cpu-ns/op "$OUT/$side.txt"
	done
	if [ -s "$OUT/instructions.txt" ]; then
		echo
		cat "$OUT/instructions.txt"
	fi
} | tee "$OUT/summary.txt"
