#!/usr/bin/env bash
# mcphttp.sh runs BenchmarkMCPHTTP (the MCP Go SDK client calling tools over streamable
# HTTP on loopback; see its doc comment) in interleaved rounds, then once more with CPU
# profiles, and prints the tables of docs/PERFORMANCE.md, "The MCP path end to end".
#
#   bench/mcphttp.sh                       # 10 rounds of 1000 calls per configuration
#   COUNT=16 CALLS=2000 bench/mcphttp.sh
#   BASE=/tmp/main-checkout bench/mcphttp.sh   # adds impl "base": that checkout's toolmcp
#   PIN=0:1 bench/mcphttp.sh               # clients on CPU 0, the server on CPU 1
#
# On a 2-CPU machine PIN=0:1 is the steadier measure of the server: its GOMAXPROCS is 1
# and its CPU a call is its own work, not the time its idle Ps spin while the clients
# run. The rounds then agree within 2% to 7%, against about ±20% unpinned
# (docs/PERFORMANCE.md, "The MCP path, fifth pass").
#
# Each round runs every configuration (stateless and with sessions; 1, 8 and 32
# clients) for each server (toolmcp, addtool, floor; and base with BASE) once, the
# servers of one configuration back to back and in an order that turns from round to
# round, so that drift in the machine's speed spreads over all of them. Each server
# process is warmed up (WARMUP calls, default 200) before its clock starts, and the
# server binaries are built once, before the first round. Besides benchstat's tables,
# the summary gives each configuration's ratio to the floor taken within each round
# (internal/ratios -paired): its median and its lowest and highest over the rounds.
#
# Raw results go to $OUT (default bench/results/<UTC date>/mcphttp): mcphttp.txt (every
# round), rounds/round-N.txt (one each), the profiles (profiles/*.pprof; PROFILE_CALLS=0
# skips them), machine.txt and summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-10}
CALLS=${CALLS:-1000}
WARMUP=${WARMUP:-200}
PROFILE_CALLS=${PROFILE_CALLS:-20000}
IMPLS=${IMPLS:-toolmcp addtool floor}
BASE=${BASE:-}
PIN=${PIN:-}
OUT=${OUT:-bench/results/$(date -u +%Y-%m-%d)/mcphttp}
BENCHSTAT=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)

if [ -n "$BASE" ]; then
	BASE=$(cd "$BASE" && pwd)
	IMPLS="$IMPLS base"
fi
read -r -a impls <<< "$IMPLS"
client=()
if [ -n "$PIN" ]; then
	client=(taskset -c "${PIN%%:*}")
	export MCPHTTP_SERVER_CPUS=${PIN#*:}
fi
export MCPHTTP_WARMUP=$WARMUP

mkdir -p "$OUT/profiles" "$OUT/rounds"
OUT=$(cd "$OUT" && pwd)
cd bench
load() { cut -d' ' -f1-3 /proc/loadavg; }
{
	echo "date: $(date -u +%FT%TZ)"
	echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- :/ || echo ' (with uncommitted changes)')"
	if [ -n "$BASE" ]; then
		echo "base: $BASE ($(git -C "$BASE" rev-parse --short HEAD 2>/dev/null || cat "$BASE/COMMIT" 2>/dev/null || echo 'no commit'))"
	fi
	echo "nproc: $(nproc)"
	grep -m1 'model name' /proc/cpuinfo | sed 's/\t*:/:/'
	go version
	echo "command: COUNT=$COUNT CALLS=$CALLS WARMUP=$WARMUP PROFILE_CALLS=$PROFILE_CALLS IMPLS='$IMPLS' PIN=$PIN bench/mcphttp.sh"
	echo "load average (1, 5, 15 min) before: $(load)"
} > "$OUT/machine.txt"

go test -c -o "$OUT/bench.test" .
go build -o "$OUT/mcpserve" ./cmd/mcpserve
if [ -n "$BASE" ]; then
	(cd "$BASE/bench" && go build -o "$OUT/mcpserve-base" ./cmd/mcpserve)
fi

# run MODE CLIENTS IMPL CALLS: one run of one configuration, to stdout.
run() {
	local bin=$OUT/mcpserve impl=$3
	if [ "$impl" = base ]; then
		bin=$OUT/mcpserve-base impl=toolmcp
	fi
	MCPHTTP_SERVE_BIN=$bin "${client[@]}" "$OUT/bench.test" -test.run '^$' -test.benchtime "$4x" -test.count 1 \
		-test.bench "^BenchmarkMCPHTTP\$/^mode=$1\$/^clients=$2\$/^impl=$impl\$" |
		if [ "$3" = base ]; then sed 's#/impl=toolmcp\([- \t]\)#/impl=base\1#'; else cat; fi
}

rm -f "$OUT/mcphttp.txt" "$OUT"/rounds/*.txt
for i in $(seq "$COUNT"); do
	echo "round $i of $COUNT, load average $(load)" | tee -a "$OUT/machine.txt" >&2
	# The order of the servers turns by one each round.
	n=${#impls[@]}
	order=()
	for j in $(seq 0 $((n - 1))); do
		order+=("${impls[$(((i + j) % n))]}")
	done
	for mode in stateless sessions; do
		for clients in 1 8 32; do
			for impl in "${order[@]}"; do
				run "$mode" "$clients" "$impl" "$CALLS" >> "$OUT/rounds/round-$i.txt"
			done
		done
	done
	cat "$OUT/rounds/round-$i.txt" >> "$OUT/mcphttp.txt"
done
rm -f "$OUT"/profiles/*.pprof
if [ "$PROFILE_CALLS" -gt 0 ]; then
	echo "profiles, load average $(load)" | tee -a "$OUT/machine.txt" >&2
	for impl in "${impls[@]}"; do
		for mode in stateless sessions; do
			# base's server is a toolmcp one, whose profile is named so: it is written
			# apart, not over this tree's toolmcp profile, and renamed.
			dir=$OUT/profiles
			if [ "$impl" = base ]; then
				dir=$OUT/profiles/base
				mkdir -p "$dir"
			fi
			MCPHTTP_PROFILE="$dir" run "$mode" 8 "$impl" "$PROFILE_CALLS" >> "$OUT/profiled.txt"
			if [ "$impl" = base ]; then
				mv "$dir/toolmcp-$mode.pprof" "$OUT/profiles/base-$mode.pprof"
				rmdir "$dir"
			fi
		done
	done
fi
rm -f "$OUT/bench.test" "$OUT/mcpserve" "$OUT/mcpserve-base"
echo "load average (1, 5, 15 min) after: $(load)" >> "$OUT/machine.txt"

cols="floor"
for impl in "${impls[@]}"; do
	[ "$impl" = floor ] || cols="$cols $impl"
done
{
	cat "$OUT/machine.txt"
	for unit in calls/s server-ns/op; do
		echo
		echo "## $unit: ratios within each round"
		echo
		go run ./internal/ratios -paired -col impl -base floor -unit "$unit" "$OUT"/rounds/round-*.txt
		if [ -n "$BASE" ]; then
			echo
			go run ./internal/ratios -paired -col impl -base base -unit "$unit" "$OUT"/rounds/round-*.txt
		fi
	done
	for unit in calls/s server-ns/op p50-µs p99-µs server-allocs/op server-B/op wire-B/op; do
		echo
		echo "## $unit (base: floor)"
		"${BENCHSTAT[@]}" -filter ".unit:$unit" -row /mode,/clients \
			-col "/impl@($cols)" "$OUT/mcphttp.txt" | sed '/^goos\|^goarch\|^pkg\|^cpu/d'
	done
	echo
	for unit in calls/s server-ns/op; do
		go run ./internal/ratios -col impl -base floor -unit "$unit" "$OUT/mcphttp.txt"
		echo
	done
	if [ "$PROFILE_CALLS" -gt 0 ]; then
		echo
		echo "## Where the server's CPU goes (8 clients, $PROFILE_CALLS calls each)"
		go run ./internal/cpusplit "$OUT"/profiles/*.pprof
	fi
} | tee "$OUT/summary.txt"
