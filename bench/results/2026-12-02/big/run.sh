#!/usr/bin/env bash
# Measures toolgen on big synthetic packages (issue 24 item 3): for each size, in a
# module of its own under a temporary directory, `toolgen generate ./...` with no
# generated file present, then `go build ./...` of the generated package with its
# dependencies already in a private build cache (a new constant in the package makes
# its build new every round, so every timed build compiles the package, cold). Rounds
# interleave the sizes and, with TREES, several toolgen trees (A/B): one line a round.
#
#	bench/results/2026-12-02/big/run.sh                    # this tree, 1,000 and 5,000 tools, 3 rounds
#	SIZES=1000 ROUNDS=5 TREES="/path/to/old /path/to/new" bench/results/2026-12-02/big/run.sh
#
# Then, as a user who edits a file of the package and runs go generate again, a new
# constant once more and `toolgen generate ./...` with toolgen.gen.go present
# (regenerate_s, regenerate_cpu_s; the files it writes are the same).
#
# Output (stdout), one line a run: the round, the tree, the number of tools, the wall
# times of generate, build and both, the CPU time (user+sys, of the process and its
# children) of each, the wall and CPU time of the regeneration, the size of
# toolgen.gen.go, its decoding mode (from its header)
# and the load average then. On a loaded machine, compare the CPU times.
# The private GOCACHE keeps `go clean -cache`, which is global, out of it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
SIZES=${SIZES:-"1000 5000"}
ROUNDS=${ROUNDS:-3}
TREES=${TREES:-$root}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOCACHE=$work/gocache GOFLAGS=-mod=mod
echo "# $(date -u +%FT%TZ) $(uname -m) $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
i=0
for tree in $TREES; do
	i=$((i+1))
	(cd "$tree" && go build -o "$work/toolgen$i" ./cmd/toolgen)
	for n in $SIZES; do
		mod=$work/t$i-m$n
		mkdir -p "$mod/synthetic"
		printf 'module example.com/scaling\n\ngo 1.26.0\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => %s\n' "$tree" >"$mod/go.mod"
		cp "$tree/go.sum" "$mod/go.sum"
		(cd "$root/bench" && go run ./internal/synth/gensynth -n "$n" -pkg synthetic -o "$mod/synthetic")
		(cd "$mod" && "$work/toolgen$i" generate ./... && go build ./...) # warms the cache of the dependencies
	done
done
now() { date +%s.%N; }
for r in $(seq "$ROUNDS"); do
	i=0
	for tree in $TREES; do
		i=$((i+1))
		for n in $SIZES; do
			mod=$work/t$i-m$n
			# The last round's toolschema/ is moved aside, not removed: on ext4 without a
			# journal (this project's machines), creating a file skips each inode of its
			# block group freed within the last 60 to 360 s (the kernel's recently_deleted),
			# so that 5,000 files removed just before make the next 5,000 creates cost
			# 3 to 5 s of kernel time instead of 0.2 s. A fresh checkout has none.
			if [ -d "$mod/synthetic/toolschema" ]; then
				mkdir -p "$work/aside"
				mv "$mod/synthetic/toolschema" "$(mktemp -u -p "$work/aside")"
			fi
			rm -f "$mod/synthetic/toolgen.gen.go"
			printf 'package synthetic\n\nconst nonce = "%s-%s"\n' "$r" "$(now)" >"$mod/synthetic/nonce.go"
			t0=$(now)
			(cd "$mod" && /usr/bin/time -o "$work/gen.cpu" -f '%U %S' "$work/toolgen$i" generate ./...)
			t1=$(now)
			(cd "$mod" && /usr/bin/time -o "$work/build.cpu" -f '%U %S' go build ./...)
			t2=$(now)
			printf 'package synthetic\n\nconst nonce = "%s-%s-re"\n' "$r" "$(now)" >"$mod/synthetic/nonce.go"
			(cd "$mod" && /usr/bin/time -o "$work/regen.cpu" -f '%U %S' "$work/toolgen$i" generate ./...)
			t3=$(now)
			rcpu=$(awk '{print $1+$2}' "$work/regen.cpu")
			gcpu=$(awk '{print $1+$2}' "$work/gen.cpu")
			bcpu=$(awk '{print $1+$2}' "$work/build.cpu")
			mode=$(grep -m1 -o 'Decoders: [a-z-]*' "$mod/synthetic/toolgen.gen.go" || echo "Decoders: specialised")
			echo "round=$r tree=$tree tools=$n generate_s=$(echo "$t1 - $t0" | bc) build_s=$(echo "$t2 - $t1" | bc) total_s=$(echo "$t2 - $t0" | bc) generate_cpu_s=$gcpu build_cpu_s=$bcpu regenerate_s=$(echo "$t3 - $t2" | bc) regenerate_cpu_s=$rcpu go_bytes=$(stat -c %s "$mod/synthetic/toolgen.gen.go") mode=${mode#Decoders: } load=$(cut -d' ' -f1 /proc/loadavg)"
		done
	done
done
