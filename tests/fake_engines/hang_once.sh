#!/usr/bin/env bash
# A fake engine for tests/gui_api.rs: completes the handshake, then never
# answers its first `go`, as a hung engine does.
#
#   hang_once.sh MARKER ENGINE [ARGS...]  hangs once: the first `go` creates
#                                         the file MARKER; a process started
#                                         while MARKER exists runs ENGINE
if [ -e "$1" ]; then
  shift
  exec "$@"
fi
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) : > "$1" ;;
    quit) exit 0 ;;
  esac
done
