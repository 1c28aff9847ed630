#!/usr/bin/env bash
# run.sh runs toolgen's benchmarks and prints the tables of docs/PERFORMANCE.md.
#
#   bench/run.sh                       # 8 rounds, 1s per benchmark, then 6 scaling runs
#   COUNT=10 BENCHTIME=2s bench/run.sh
#   SCALING=0 bench/run.sh             # skip the generator scaling benchmarks
#   SUMMARY_ONLY=1 OUT=bench/results/2026-11-30 bench/run.sh   # tables of earlier results
#
# BenchmarkDecode and BenchmarkCall cover the payloads of this package's tools
# (weather, transactions, batch) and those of bench/shapes (alarm, logs, contacts), which
# also have a floor, a hand-written single-pass decoder of the same contract.
#
# The decode, call and registration benchmarks are interleaved: each round runs every
# approach once, for every payload, so that drift in the machine's speed (other work,
# thermal limits) spreads over all approaches instead of landing on one. Each of COUNT
# rounds runs each benchmark for BENCHTIME.
#
# Raw results go to $OUT (default bench/results/<UTC date>): decode.txt, call.txt,
# toolset.txt, scaling.txt, the machine and its load in machine.txt; the benchstat
# tables (with encoding_json as the base of BenchmarkDecode) and the ratio tables are
# printed and saved as summary.txt. OUT is relative to the repository's root.
#
# bench is a module of its own (bench/go.mod, with a replace of toolgen by the checkout);
# the 1,000-tool package bench/thousand is not committed, so run.sh generates it first.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-8}
BENCHTIME=${BENCHTIME:-1s}
SCALING=${SCALING:-1}
SCALING_COUNT=${SCALING_COUNT:-6}
SCALING_SIZES=${SCALING_SIZES:-100,1000,5000}
OUT=${OUT:-bench/results/$(date -u +%Y-%m-%d)}
BENCHSTAT=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)
APPROACHES="generated floor encoding_json encoding_json_handwritten jsonschema_v6 mcp_sdk easyjson goccy sonic sonic_std"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd bench
load() { cut -d' ' -f1-3 /proc/loadavg; }
if [ -z "${SUMMARY_ONLY:-}" ]; then
rm -f "$OUT"/{decode,call,toolset,scaling}.txt "$OUT/summary.txt"
{
	echo "date: $(date -u +%FT%TZ)"
	echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- :/ || echo ' (with uncommitted changes)')"
	echo "nproc: $(nproc)"
	grep -m1 'model name' /proc/cpuinfo | sed 's/\t*:/:/'
	go version
	echo "command: COUNT=$COUNT BENCHTIME=$BENCHTIME SCALING=$SCALING SCALING_COUNT=$SCALING_COUNT bench/run.sh"
	echo "load average (1, 5, 15 min) before: $(load)"
} > "$OUT/machine.txt"

go generate ./thousand
go test -c -o "$OUT/bench.test" .
bench() { # file, -test.bench pattern
	"$OUT/bench.test" -test.run '^$' -test.bench "$2" -test.benchtime "$BENCHTIME" \
		-test.count 1 -test.benchmem >> "$OUT/$1"
}
for i in $(seq "$COUNT"); do
	echo "round $i of $COUNT, load average $(load)" | tee -a "$OUT/machine.txt" >&2
	for a in $APPROACHES; do
		bench decode.txt "^BenchmarkDecode\$/^payload=/^approach=$a\$"
	done
	for p in decode call; do
		bench call.txt "^BenchmarkCall\$/^payload=/^path=$p\$"
	done
	for a in toolgen toolmcp mcp_addtool; do
		bench toolset.txt "^BenchmarkToolset1000\$/^approach=$a\$"
	done
done
rm -f "$OUT/bench.test"

if [ "$SCALING" != 0 ]; then
	echo "generator scaling, load average $(load)" | tee -a "$OUT/machine.txt" >&2
	go test -run '^$' -bench . -benchtime 1x -count "$SCALING_COUNT" -timeout 0 \
		./scaling -scaling -sizes "$SCALING_SIZES" > "$OUT/scaling.txt"
fi
echo "load average (1, 5, 15 min) after: $(load)" >> "$OUT/machine.txt"
fi

{
	cat "$OUT/machine.txt"
	echo
	echo "## BenchmarkDecode (base: encoding_json)"
	"${BENCHSTAT[@]}" -row /payload \
		-col "/approach@(encoding_json ${APPROACHES/encoding_json /})" "$OUT/decode.txt"
	echo
	go run ./internal/ratios -col approach -base encoding_json "$OUT/decode.txt"
	echo
	echo "## BenchmarkDecode, the generated decoders against the fastest others (base: goccy)"
	"${BENCHSTAT[@]}" -filter '/approach:(goccy OR generated OR easyjson OR sonic OR sonic_std)' -row /payload \
		-col '/approach@(goccy generated easyjson sonic sonic_std)' "$OUT/decode.txt"
	echo
	echo "## BenchmarkDecode, the payloads of bench/shapes against their floor (base: floor)"
	"${BENCHSTAT[@]}" -filter '/payload:(alarm OR logs OR contacts)' -row /payload \
		-col '/approach@(floor generated goccy sonic sonic_std easyjson encoding_json jsonschema_v6)' "$OUT/decode.txt"
	echo
	go run ./internal/ratios -col approach -base floor "$OUT/decode.txt"
	echo
	echo "## BenchmarkCall (base: the bare generated decode)"
	"${BENCHSTAT[@]}" -row /payload -col /path "$OUT/call.txt"
	echo
	go run ./internal/ratios -col path -base decode "$OUT/call.txt"
	echo
	echo "## BenchmarkToolset1000 (base: toolgen)"
	"${BENCHSTAT[@]}" -col /approach "$OUT/toolset.txt"
	echo
	go run ./internal/ratios -col approach -base toolgen "$OUT/toolset.txt"
	if [ -s "$OUT/scaling.txt" ]; then
		echo
		echo "## Generator scaling"
		"${BENCHSTAT[@]}" -row /tools -col /step "$OUT/scaling.txt"
		echo
		go run ./internal/ratios -col step -base "" "$OUT/scaling.txt"
	fi
} | tee "$OUT/summary.txt"
