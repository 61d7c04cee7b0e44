#!/usr/bin/env bash
# Rates every level on the PlayOK scale (STRENGTH.md, "The levels' PlayOK
# ratings"): reviews the 1,229 rated PlayOK games and the levels' games that
# scripts/levels.sh played (run it first) at depth 12, then fits and prints
# the table for STRENGTH.md and the RATINGS table of
# crates/protocol/src/level.rs. The samples stay in target/rating/.
#
#   scripts/rating.sh [tuzdyk binary]
#
# The steps above intermediate have no games here: they are given with
# --chain from the matches of STRENGTH.md (Level calibration, and the
# network's levels under "The learned evaluation"). Once those levels are
# recalibrated, add their step matches to scripts/levels.sh and drop their
# --chain.
set -euo pipefail
cd "$(dirname "$0")/.."

tuzdyk=${1:-target/release/tuzdyk}
games=target/levels
out=target/rating
mkdir -p "$out"

LEVEL_GAMES="learner-beginner improver-learner apprentice-improver amateur-apprentice \
hobbyist-amateur regular-hobbyist keen-regular novice-keen casual-novice intermediate-casual \
beginner-greedy apprentice-greedy2"
files=()
for name in $LEVEL_GAMES; do
  files+=("$games/$name.pgn")
done

"$tuzdyk" rating --rated tests/data/playok-games.pgn --depth 12 --jobs 2 --losses "$out/playok.tsv"
"$tuzdyk" rating --levels "${files[@]}" --depth 12 --jobs 2 --losses "$out/levels.tsv"
"$tuzdyk" rating --from-losses "$out/playok.tsv" "$out/levels.tsv" \
  --chain skilled=+159.8/45.4 --chain advanced=+132.9/48.2 --chain expert=+190.8/50.8 \
  --chain candidate=+149.3/47.1 --chain master=+157.7/48.8 --chain grandmaster=+197.9/47.0 --chain champion=+205.0/46.8 |
  tee "$out/table.md"
