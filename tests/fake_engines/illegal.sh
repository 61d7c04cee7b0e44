#!/usr/bin/env bash
# A fake engine for tests/match_tool.rs: completes the handshake, then
# answers every `go` with hole 1, whether it is legal or not.
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "bestmove 1" ;;
    quit) exit 0 ;;
  esac
done
