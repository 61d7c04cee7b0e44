#!/usr/bin/env bash
# Reproduces the shipped puzzles (crates/db/data/puzzles.jsonl, docs/puzzles.md):
# the 1,229 PlayOK games of tests/data imported into a fresh database, mined
# by the engine as built (its built-in network) at the default depth in
# four shards one after the other, exported as JSON lines. The set is the
# shipped engine's: tests/puzzles.rs searches a handful of it again deeper
# through the engine, so a new built-in network is followed by this script.
#
#   scripts/puzzles.sh [WORKDIR]     # default target/puzzles; about 8 minutes of one core
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-target/puzzles}
mkdir -p "$work"
cargo build --release --quiet
tuzdyk=target/release/tuzdyk
db="$work/mine.sqlite"
rm -f "$db" "$db-wal" "$db-shm"
"$tuzdyk" db import tests/data/playok-games.pgn --db "$db"
for shard in 1 2 3 4; do
  "$tuzdyk" puzzles mine --db "$db" --shard "$shard/4" --every 100
done
"$tuzdyk" puzzles export --db "$db" --json > crates/db/data/puzzles.jsonl
echo "crates/db/data/puzzles.jsonl: $(wc -l < crates/db/data/puzzles.jsonl) puzzles"
