#!/usr/bin/env bash
# Reproduces the built-in network (crates/search/nets/README.md) from a
# fresh clone: generation 1 from the self-play of the hand-written
# evaluation, each later generation from the self-play of the one before
# (generations 1-6 trained afresh on the data of all generations so far,
# generations 7-12 each trained further from the one before on its games
# alone, generation 13d from generation 12 on its games at 5,000 and at
# 20,000 nodes a move), and a byte-for-byte comparison with
# crates/search/nets/default.tznn.
#
#   scripts/network.sh [WORKDIR]     # default target/network; about 390 minutes on 2 cores
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-target/network}
mkdir -p "$work"
cargo build --release --quiet
tuzdyk=target/release/tuzdyk

# Generation K plays seed K with generation K-1 (generation 1: the
# hand-written evaluation), shards 0 and 1 of a 40,000-game run, and trains
# with seed K on every generation's data so far (generation 0's shards as
# one concatenated file, as generation 1 was trained).
afresh=6
last=12
train_files=()

# selfplay K SHARD...: generation K's data, the given shards of seed K's
# 40,000-game run with generation K-1 at 5,000 nodes a move, as
# genK-1-shardS.bin (kept if there). `nodes=N seed=S tag=-T selfplay ...`
# plays another node count and seed into genK-1-T-shardS.bin.
selfplay() {
  local k=$1 name=gen$(($1 - 1)) eval shard out
  shift
  if [ "$k" = 1 ]; then eval=classic; else eval="$work/$name.tznn"; fi
  for shard in "$@"; do
    out="$work/$name${tag:-}-shard$shard.bin"
    [ -s "$out" ] || "$tuzdyk" datagen --games 40000 --nodes "${nodes:-5000}" --seed "${seed:-$k}" \
                       --eval "$eval" --shard "$shard/8" --out "$out"
  done
}

for k in $(seq 1 "$afresh"); do
  name=gen$((k - 1))
  selfplay "$k" 0 1
  if [ "$k" = 1 ]; then
    cat "$work/gen0-shard0.bin" "$work/gen0-shard1.bin" > "$work/gen0-s01.bin"
    train_files+=("$work/gen0-s01.bin")
  else
    train_files+=("$work/$name-shard0.bin" "$work/$name-shard1.bin")
  fi
  "$tuzdyk" train "${train_files[@]}" --out "$work/gen$k.tznn" --epochs 30 --seed "$k"
done

# Generation K after that plays seed K with generation K-1, shards 0-2
# (from generation 10 on all eight shards, the whole 40,000 games), and
# trains further from generation K-1's weights on those games alone, 10
# epochs at a third of the usual step size (trained afresh on them,
# generation 7 lost its SPRT: STRENGTH.md).
for k in $(seq $((afresh + 1)) "$last"); do
  name=gen$((k - 1))
  if [ "$k" -ge 10 ]; then shards=(0 1 2 3 4 5 6 7); else shards=(0 1 2); fi
  selfplay "$k" "${shards[@]}"
  files=()
  for shard in "${shards[@]}"; do files+=("$work/$name-shard$shard.bin"); done
  "$tuzdyk" train "${files[@]}" \
    --init "$work/$name.tznn" --out "$work/gen$k.tznn" --epochs 10 --rate 0.0003 --seed "$k"
done

# Generation 13d: generation 12 trained further, as generation 13 of the
# recipe above would be, on the 40,000 games of seed 13 at 5,000 nodes a
# move, and beside them on deeper games: shards 0 and 1 of a 40,000-game
# run of seed 14 at 20,000 nodes a move, both with generation 12 (that
# recipe alone gained nothing: STRENGTH.md).
selfplay $((last + 1)) 0 1 2 3 4 5 6 7
nodes=20000 seed=$((last + 2)) tag=-deep selfplay $((last + 1)) 0 1
files=()
for shard in 0 1 2 3 4 5 6 7; do files+=("$work/gen$last-shard$shard.bin"); done
files+=("$work/gen$last-deep-shard0.bin" "$work/gen$last-deep-shard1.bin")
built_in="$work/gen$((last + 1))d.tznn"
"$tuzdyk" train "${files[@]}" \
  --init "$work/gen$last.tznn" --out "$built_in" --epochs 10 --rate 0.0003 --seed $((last + 2))

if cmp "$built_in" crates/search/nets/default.tznn; then
  echo "$built_in is the built-in network"
else
  echo "$built_in differs from the built-in network" >&2
  exit 1
fi
