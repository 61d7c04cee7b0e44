#!/usr/bin/env bash
# Reproduces the built-in network (crates/search/nets/README.md) from a
# fresh clone: generation 1 from the self-play of the hand-written
# evaluation, each later generation from the self-play of the one before
# (trained on the data of all generations so far), up to generation 4, and
# a byte-for-byte comparison with crates/search/nets/default.tznn.
#
#   scripts/network.sh [WORKDIR]     # default target/network; about 130 minutes on 2 cores
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-target/network}
mkdir -p "$work"
cargo build --release --quiet
tuzdyk=target/release/tuzdyk

# datagen NAME SEED EVAL: shards 0 and 1 of a 40,000-game run, concatenated.
datagen() {
  local name=$1 seed=$2 eval=$3
  for shard in 0 1; do
    out="$work/$name-shard$shard.bin"
    [ -s "$out" ] || "$tuzdyk" datagen --games 40000 --nodes 5000 --seed "$seed" --eval "$eval" \
                       --shard "$shard/8" --out "$out"
  done
  cat "$work/$name-shard0.bin" "$work/$name-shard1.bin" > "$work/$name-s01.bin"
}

# Generation 1: the hand-written evaluation's games.
datagen gen0 1 classic
"$tuzdyk" train "$work/gen0-s01.bin" --out "$work/gen1.tznn" --epochs 30 --seed 1

# Generation 2: generation 1's games, trained on both generations' data.
datagen gen1 2 "$work/gen1.tznn"
"$tuzdyk" train "$work/gen0-s01.bin" "$work/gen1-shard0.bin" "$work/gen1-shard1.bin" \
  --out "$work/gen2.tznn" --epochs 30 --seed 2

# Generation 3: generation 2's games, trained on all three generations' data.
datagen gen2 3 "$work/gen2.tznn"
"$tuzdyk" train "$work/gen0-s01.bin" "$work/gen1-shard0.bin" "$work/gen1-shard1.bin" \
  "$work/gen2-shard0.bin" "$work/gen2-shard1.bin" --out "$work/gen3.tznn" --epochs 30 --seed 3

# Generation 4: generation 3's games, trained on all four generations' data.
datagen gen3 4 "$work/gen3.tznn"
"$tuzdyk" train "$work/gen0-s01.bin" "$work/gen1-shard0.bin" "$work/gen1-shard1.bin" \
  "$work/gen2-shard0.bin" "$work/gen2-shard1.bin" "$work/gen3-shard0.bin" "$work/gen3-shard1.bin" \
  --out "$work/gen4.tznn" --epochs 30 --seed 4

if cmp "$work/gen4.tznn" crates/search/nets/default.tznn; then
  echo "$work/gen4.tznn is the built-in network"
else
  echo "$work/gen4.tznn differs from the built-in network" >&2
  exit 1
fi
