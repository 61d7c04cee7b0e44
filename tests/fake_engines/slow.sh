#!/usr/bin/env bash
# A fake engine for tests/match_tool.rs: answers every `go` with hole MOVE
# after sleeping SECONDS, whatever its clock says.
#
#   slow.sh SECONDS MOVE
seconds=${1:-1}
move=${2:-1}
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name slow"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) sleep "$seconds"; echo "bestmove $move" ;;
    quit) exit 0 ;;
  esac
done
