#!/usr/bin/env bash
# Generate only (issue 24 item 3, the generate half): for each size, in a module of its
# own, `toolgen generate ./...` with no generated file present, timed; rounds interleave
# the sizes and the toolgen binaries named in BINS (A/B), one line a run. Compare the
# CPU times (user+sys) on a loaded machine.
#
#	BINS="/tmp/toolgen-a /tmp/toolgen-b" SIZES="1000 5000" ROUNDS=3 bench/results/2026-12-03/gen5/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
SIZES=${SIZES:-"1000 5000"}
ROUNDS=${ROUNDS:-3}
work=${WORK:-$(mktemp -d)}
export GOFLAGS=-mod=mod
echo "# $(date -u +%FT%TZ) $(uname -m) $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for n in $SIZES; do
	mod=$work/m$n
	if [ ! -d "$mod" ]; then
		mkdir -p "$mod/synthetic"
		printf 'module example.com/scaling\n\ngo 1.26.0\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => %s\n' "$root" >"$mod/go.mod"
		cp "$root/go.sum" "$mod/go.sum"
		(cd "$root/bench" && go run ./internal/synth/gensynth -n "$n" -pkg synthetic -o "$mod/synthetic")
	fi
done
now() { date +%s.%N; }
for r in $(seq "$ROUNDS"); do
	for bin in $BINS; do
		for n in $SIZES; do
			mod=$work/m$n
			rm -rf "$mod/synthetic/toolgen.gen.go" "$mod/synthetic/toolschema"
			t0=$(now)
			(cd "$mod" && /usr/bin/time -o "$work/gen.cpu" -f '%U %S' "$bin" generate ./...)
			t1=$(now)
			read -r u s <"$work/gen.cpu"
			echo "round=$r bin=$(basename "$bin") tools=$n generate_s=$(echo "$t1 - $t0" | bc) user_s=$u sys_s=$s cpu_s=$(echo "$u + $s" | bc) load=$(cut -d' ' -f1 /proc/loadavg)"
		done
	done
done
