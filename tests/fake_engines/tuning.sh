#!/usr/bin/env bash
# A stand-in tuning build for tests/spsa.rs: runs ENGINE [ARGS...] (the
# default build of tuzdyk, or crash.sh in front of it), adds the spin option
# RFP_MARGIN to its handshake and takes `setoption name RFP_MARGIN ...`
# itself, which the default build would refuse. It ends when ENGINE ends.
#
#   tuning.sh ENGINE [ARGS...]
dir=$(mktemp -d)
mkfifo "$dir/in"
"$@" < "$dir/in" &
engine=$!
exec 3> "$dir/in"
rm -rf "$dir"
while IFS= read -r line; do
  case "$line" in
    uci)
      echo "option name RFP_MARGIN type spin default 90 min 30 max 200"
      echo "uci" >&3 ;;
    "setoption name RFP_MARGIN "*) ;;
    *) echo "$line" >&3 ;;
  esac
done <&0 &
reader=$!
exec 3>&- 0<&-
wait "$engine"
status=$?
kill "$reader" 2>/dev/null
exit "$status"
