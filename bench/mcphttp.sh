#!/usr/bin/env bash
# mcphttp.sh runs BenchmarkMCPHTTP (the MCP Go SDK client calling tools over streamable
# HTTP on loopback; see its doc comment) in interleaved rounds, then once more with CPU
# profiles, and prints the tables of docs/PERFORMANCE.md, "The MCP path end to end".
#
#   bench/mcphttp.sh                       # 6 rounds of 3000 calls per configuration
#   COUNT=10 CALLS=5000 bench/mcphttp.sh
#
# Each round runs every configuration (stateless and with sessions; 1, 8 and 32
# clients) for each of the three servers (toolmcp, addtool, floor) once, so that drift
# in the machine's speed spreads over all of them. Raw results go to $OUT (default
# bench/results/<UTC date>/mcphttp): mcphttp.txt, the profiles (profiles/*.pprof),
# machine.txt and summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-6}
CALLS=${CALLS:-3000}
PROFILE_CALLS=${PROFILE_CALLS:-20000}
OUT=${OUT:-bench/results/$(date -u +%Y-%m-%d)/mcphttp}
BENCHSTAT=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)

mkdir -p "$OUT/profiles"
OUT=$(cd "$OUT" && pwd)
cd bench
load() { cut -d' ' -f1-3 /proc/loadavg; }
{
	echo "date: $(date -u +%FT%TZ)"
	echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- :/ || echo ' (with uncommitted changes)')"
	echo "nproc: $(nproc)"
	grep -m1 'model name' /proc/cpuinfo | sed 's/\t*:/:/'
	go version
	echo "command: COUNT=$COUNT CALLS=$CALLS PROFILE_CALLS=$PROFILE_CALLS bench/mcphttp.sh"
	echo "load average (1, 5, 15 min) before: $(load)"
} > "$OUT/machine.txt"

go test -c -o "$OUT/bench.test" .
rm -f "$OUT/mcphttp.txt"
for i in $(seq "$COUNT"); do
	echo "round $i of $COUNT, load average $(load)" | tee -a "$OUT/machine.txt" >&2
	for mode in stateless sessions; do
		for clients in 1 8 32; do
			for impl in toolmcp addtool floor; do
				"$OUT/bench.test" -test.run '^$' -test.benchtime "${CALLS}x" -test.count 1 \
					-test.bench "^BenchmarkMCPHTTP\$/^mode=$mode\$/^clients=$clients\$/^impl=$impl\$" >> "$OUT/mcphttp.txt"
			done
		done
	done
done
echo "profiles, load average $(load)" | tee -a "$OUT/machine.txt" >&2
rm -f "$OUT"/profiles/*.pprof
MCPHTTP_PROFILE="$OUT/profiles" "$OUT/bench.test" -test.run '^$' -test.benchtime "${PROFILE_CALLS}x" \
	-test.count 1 -test.bench '^BenchmarkMCPHTTP$/^mode=/^clients=8$/' > "$OUT/profiled.txt"
rm -f "$OUT/bench.test"
echo "load average (1, 5, 15 min) after: $(load)" >> "$OUT/machine.txt"

{
	cat "$OUT/machine.txt"
	for unit in calls/s server-ns/op p50-µs p99-µs server-allocs/op server-B/op wire-B/op; do
		echo
		echo "## $unit (base: floor)"
		"${BENCHSTAT[@]}" -filter ".unit:$unit" -row /mode,/clients \
			-col '/impl@(floor toolmcp addtool)' "$OUT/mcphttp.txt" | sed '/^goos\|^goarch\|^pkg\|^cpu/d'
	done
	echo
	for unit in calls/s server-ns/op; do
		go run ./internal/ratios -col impl -base floor -unit "$unit" "$OUT/mcphttp.txt"
		echo
	done
	echo
	echo "## Where the server's CPU goes (8 clients, $PROFILE_CALLS calls each)"
	go run ./internal/cpusplit "$OUT"/profiles/*.pprof
} | tee "$OUT/summary.txt"
