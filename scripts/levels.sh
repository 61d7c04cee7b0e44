#!/usr/bin/env bash
# Plays the matches that calibrate the bottom of the ladder and give the
# rating review its games (STRENGTH.md, "The levels"): every level up to
# novice against the two stand-ins at --movetime 100, and each step of the
# ladder up to intermediate against the level below at --tc 5+0.05. Every
# engine here is node-capped or a stand-in, so the games do not depend on
# the machine's speed. The results go to target/levels/results.txt, the
# games to target/levels/<level>-<opponent>.pgn.
#
#   scripts/levels.sh [tuzdyk binary] [games per match]
#
# Then `tuzdyk rating` (scripts/rating.sh) places each level on the PlayOK
# scale from those games. To recalibrate the upper levels, add their steps
# to STEPS (they are node-capped up to advanced).
set -euo pipefail
cd "$(dirname "$0")/.."

tuzdyk=${1:-target/release/tuzdyk}
games=${2:-200}
out=target/levels
mkdir -p "$out"
results=$out/results.txt
: >"$results"

BOTTOM="beginner learner improver apprentice amateur hobbyist regular keen novice"
STEPS="learner:beginner improver:learner apprentice:improver amateur:apprentice \
hobbyist:amateur regular:hobbyist keen:regular novice:keen casual:novice intermediate:casual"

# match <level> <opponent> <limit...>: one match, its result line kept.
match() {
  local a=$1 b=$2
  shift 2
  rm -f "$out/$a-$b.pgn"
  "$tuzdyk" match --engine cmd="$tuzdyk" name="$a" option.Level="$a" \
    --engine cmd="$tuzdyk" name="$b" option.Level="$b" \
    "$@" --games "$games" --concurrency 2 --seed 1 --pgn "$out/$a-$b.pgn" \
    2>/dev/null | grep '^result:' | sed "s|\$| ($*)|" | tee -a "$results"
}

match greedy2 greedy --movetime 100
for level in $BOTTOM; do
  match "$level" greedy --movetime 100
  match "$level" greedy2 --movetime 100
done
for step in $STEPS; do
  match "${step%%:*}" "${step##*:}" --tc 5+0.05
done
