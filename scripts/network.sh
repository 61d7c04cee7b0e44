#!/usr/bin/env bash
# Reproduces the built-in network (crates/search/nets/README.md) from a
# fresh clone: the self-play data, the training, and a byte-for-byte
# comparison with crates/search/nets/default.tznn.
#
#   scripts/network.sh [WORKDIR]     # default target/network; about 45 minutes on 2 cores
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-target/network}
mkdir -p "$work"
cargo build --release --quiet
tuzdyk=target/release/tuzdyk

for shard in 0 1; do
  out="$work/gen0-shard$shard.bin"
  [ -s "$out" ] || "$tuzdyk" datagen --games 40000 --nodes 5000 --seed 1 --eval classic \
                     --shard "$shard/8" --out "$out"
done
cat "$work/gen0-shard0.bin" "$work/gen0-shard1.bin" > "$work/gen0-s01.bin"
"$tuzdyk" train "$work/gen0-s01.bin" --out "$work/gen1.tznn" --epochs 30 --seed 1

if cmp "$work/gen1.tznn" crates/search/nets/default.tznn; then
  echo "$work/gen1.tznn is the built-in network"
else
  echo "$work/gen1.tznn differs from the built-in network" >&2
  exit 1
fi
