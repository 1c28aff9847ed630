#!/usr/bin/env bash
# run.sh compares the generated validating decoder with goccy/go-json on the six
# payloads of BenchmarkDecode (weather, transactions, batch; alarm, logs, contacts), for
# the decoder before this work and after it, in interleaved rounds: each round runs
# the before binary and the after binary once, each of them running generated and
# goccy on every payload, so that drift in the machine's speed lands on all of them.
#
#   bench/results/2026-12-02/goccy/run.sh                    # 12 rounds of 0.5 s
#   COUNT=20 BENCHTIME=1s OUT=/tmp/goccy bench/results/2026-12-02/goccy/run.sh
#   BEFORE=9f512a7 AFTER=HEAD bench/results/2026-12-02/goccy/run.sh
#
# BEFORE and AFTER are commits (default: 9f512a7, the main this work started from, and
# HEAD); the after binary is built from the checkout itself when AFTER is HEAD (with any
# uncommitted changes). Raw results: $OUT/before.txt and $OUT/after.txt, the machine
# and its load in $OUT/machine.txt; benchstat's tables (generated against goccy in each
# binary, and before against after) in $OUT/benchstat.txt.
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(git rev-parse --show-toplevel)
OUT=${OUT:-$here}
BEFORE=${BEFORE:-9f512a7}
AFTER=${AFTER:-HEAD}
COUNT=${COUNT:-12}
BENCHTIME=${BENCHTIME:-0.5s}
BENCHSTAT=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

build() { # commit, binary
	if [ "$1" = HEAD ]; then
		(cd "$root/bench" && go test -c -o "$2" .)
		return
	fi
	mkdir -p "$tmp/src-$1"
	git -C "$root" archive "$1" | tar -x -C "$tmp/src-$1"
	(cd "$tmp/src-$1/bench" && go test -c -o "$2" .)
}
build "$BEFORE" "$tmp/before.test"
build "$AFTER" "$tmp/after.test"

{
	echo "date: $(date -u +%FT%TZ)"
	echo "before: $(git -C "$root" rev-parse --short "$BEFORE"); after: $(git -C "$root" rev-parse --short "$AFTER")$( [ "$AFTER" = HEAD ] && ! git -C "$root" diff --quiet HEAD -- && echo ' (with uncommitted changes)')"
	echo "nproc: $(nproc)"
	grep -m1 'model name' /proc/cpuinfo | sed 's/\t*:/:/'
	go version
	echo "command: COUNT=$COUNT BENCHTIME=$BENCHTIME BEFORE=$BEFORE AFTER=$AFTER run.sh"
	echo "load average (1, 5, 15 min) before: $(load)"
} > "$OUT/machine.txt"
rm -f "$OUT/before.txt" "$OUT/after.txt"
for i in $(seq "$COUNT"); do
	echo "round $i of $COUNT, load average $(load)" | tee -a "$OUT/machine.txt" >&2
	for b in before after; do
		"$tmp/$b.test" -test.run '^$' -test.bench '^BenchmarkDecode$/^payload=/^approach=(generated|goccy)$' \
			-test.benchtime "$BENCHTIME" -test.count 1 -test.benchmem >> "$OUT/$b.txt"
	done
done
echo "load average (1, 5, 15 min) after: $(load)" >> "$OUT/machine.txt"

{
	echo "## after: generated against goccy (goccy the base)"
	"${BENCHSTAT[@]}" -col '/approach@(goccy generated)' "$OUT/after.txt"
	echo
	echo "## before: generated against goccy (goccy the base)"
	"${BENCHSTAT[@]}" -col '/approach@(goccy generated)' "$OUT/before.txt"
	echo
	echo "## generated, before against after"
	"${BENCHSTAT[@]}" -filter '/approach:generated' "$OUT/before.txt" "$OUT/after.txt"
} | tee "$OUT/benchstat.txt"
