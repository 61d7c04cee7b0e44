#!/usr/bin/env bash
# A fake engine for tests/match_tool.rs: completes the handshake and answers
# `isready`, but never answers `go`, as a hung engine does.
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
