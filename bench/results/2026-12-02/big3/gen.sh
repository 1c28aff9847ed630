#!/usr/bin/env bash
# Interleaved timing of `toolgen generate ./...` (no generated file, then regenerate with it
# present) for several toolgen binaries, on the synthetic package of N tools.
# usage: N=1000 ROUNDS=5 gen.sh bin1 bin2 ...
set -euo pipefail
N=${N:-1000}; ROUNDS=${ROUNDS:-5}
work=/tmp/big3/work; mkdir -p $work
export GOCACHE=$work/gocache GOFLAGS=-mod=mod
root=/work/wt/big
now() { date +%s.%N; }
i=0
for bin in "$@"; do
	i=$((i+1)); mod=$work/m$i-$N
	if [ ! -d $mod ]; then
		mkdir -p $mod/synthetic
		printf 'module example.com/scaling\n\ngo 1.26.0\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => %s\n' "$root" >$mod/go.mod
		cp $root/go.sum $mod/go.sum
		(cd $root/bench && go run ./internal/synth/gensynth -n $N -pkg synthetic -o $mod/synthetic)
		(cd $mod && $bin generate ./... && go build ./...)
	fi
done
for r in $(seq $ROUNDS); do
	i=0
	for bin in "$@"; do
		i=$((i+1)); mod=$work/m$i-$N
		rm -rf $mod/synthetic/toolgen.gen.go $mod/synthetic/toolschema
		printf 'package synthetic\n\nconst nonce = "%s-%s"\n' "$r" "$(now)" >$mod/synthetic/nonce.go
		t0=$(now)
		(cd $mod && /usr/bin/time -o $work/gen.cpu -f '%U %S' $bin generate ./...)
		t1=$(now)
		printf 'package synthetic\n\nconst nonce = "%s-%s-re"\n' "$r" "$(now)" >$mod/synthetic/nonce.go
		(cd $mod && /usr/bin/time -o $work/regen.cpu -f '%U %S' $bin generate ./...)
		t2=$(now)
		echo "round=$r bin=$(basename $bin) tools=$N generate_s=$(echo "$t1 - $t0" | bc) generate_cpu_s=$(awk '{print $1+$2}' $work/gen.cpu) regenerate_s=$(echo "$t2 - $t1" | bc) regenerate_cpu_s=$(awk '{print $1+$2}' $work/regen.cpu) load=$(cut -d' ' -f1 /proc/loadavg)"
	done
done
