#!/usr/bin/env bash
# A fake engine for tests/match_tool.rs: completes the handshake, then exits
# (status 3) at its first `go`, as a crashing engine does.
#
#   crash.sh                          crashes in every game
#   crash.sh MARKER ENGINE [ARGS...]  crashes once: the first crash creates
#                                     the file MARKER; a process started while
#                                     MARKER exists runs ENGINE instead
if [ $# -ge 2 ] && [ -e "$1" ]; then
  shift
  exec "$@"
fi
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      if [ $# -ge 1 ]; then : > "$1"; fi
      exit 3 ;;
    quit) exit 0 ;;
  esac
done
