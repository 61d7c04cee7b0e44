#!/usr/bin/env bash
# Builds the baseline engine, the reference of every strength test
# (STRENGTH.md): the engine as it stood when the engine issue was resolved.
#
#   scripts/baseline.sh            # builds target/baseline/tuzdyk and prints its path
#   scripts/baseline.sh <rev>      # builds another revision to target/baseline/tuzdyk-<rev>
#
# The baseline is the tag `baseline`; a clone without tags falls back to
# the commit it names.
set -euo pipefail
cd "$(dirname "$0")/.."

BASELINE_COMMIT=26e65737451d65daa210d8fb3e5226ba90238f7d
rev=${1:-baseline}
if [ "$rev" = baseline ] && ! git rev-parse -q --verify "baseline^{commit}" >/dev/null; then
  rev=$BASELINE_COMMIT
fi
commit=$(git rev-parse --verify "$rev^{commit}")

name=tuzdyk
[ "${1:-baseline}" = baseline ] || name="tuzdyk-$1"
mkdir -p target/baseline
if [ ! -x "target/baseline/$name" ] || [ "$(cat "target/baseline/$name.commit" 2>/dev/null)" != "$commit" ]; then
  # Built outside this checkout, in a tree of its own, so that its own
  # Cargo.toml, lock file and .cargo/config.toml apply: inside the
  # checkout cargo takes an old single-package tree for an unlisted member
  # of today's workspace and refuses to build it.
  work=$(mktemp -d "${TMPDIR:-/tmp}/tuzdyk-baseline.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/src"
  git archive "$commit" | tar -x -C "$work/src"
  (cd "$work/src" && cargo build --release --quiet --target-dir "$work/build")
  cp "$work/build/release/tuzdyk" "target/baseline/$name"
  echo "$commit" > "target/baseline/$name.commit"
fi
echo "target/baseline/$name"
