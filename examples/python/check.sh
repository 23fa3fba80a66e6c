#!/usr/bin/env bash
# CI check of the Python examples: installs the chessd-client package (clients/python), starts
# chessd on a loopback port, creates a game and lets two Python bots play it to the end; the
# ratings service (ratings.py) takes its cursor before the game, rates the game once when it
# resumes after it, and nothing more on a third run.
# Bounded: the server and bots are stopped after 120 s whatever happens.
# Usage: examples/python/check.sh [path/to/chessd]   (default: target/debug/chessd)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
chessd="${1:-$here/../../target/debug/chessd}"
port="${CHESSD_PY_PORT:-50077}"
if [ ! -x "$chessd" ]; then
  echo "check.sh: no chessd binary at $chessd (build it with cargo build --bin chessd)" >&2
  exit 1
fi
python3 -m pip install --quiet --disable-pip-version-check "$here/../../clients/python"
logs=$(mktemp -d)
timeout 120 "$chessd" serve --listen "127.0.0.1:$port" --heartbeat 200ms >"$logs/chessd.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$logs"' EXIT
cd "$here"
game=$(timeout 30 python3 - "$port" <<'PY'
import sys, time
import grpc
import chessd_client as cc
with cc.Client(f"127.0.0.1:{sys.argv[1]}") as client:
    grpc.channel_ready_future(client.channel).result(timeout=20)
    g = client.create_game(cc.Variant.CHESS, white="py-a", black="py-b")
    print(g.game_id, g.white.token, g.black.token)
PY
)
read -r id white black <<<"$game"
# The ratings service's first run: the feed from now, the cursor saved (from heartbeats).
ratings=(python3 ratings.py --addr "127.0.0.1:$port" --state "$logs/ratings.json" --exit-when-idle 1)
timeout 60 "${ratings[@]}" >/dev/null
grep -q '"cursor": "[^"]' "$logs/ratings.json"
timeout 120 python3 bot.py --addr "127.0.0.1:$port" --game "$id" --token "$black" >"$logs/black.log" 2>&1 &
bot=$!
timeout 120 python3 bot.py --addr "127.0.0.1:$port" --game "$id" --token "$white" | tee "$logs/white.log"
wait "$bot"
cat "$logs/black.log"
grep -q "game over" "$logs/white.log" && grep -q "game over" "$logs/black.log"
echo "pybot: 1 passed, 0 failed"
# Resumed after its cursor, the service rates the game played while it was away...
timeout 60 "${ratings[@]}" | tee "$logs/ratings.log"
grep -q "^rated $id: py-a " "$logs/ratings.log"
grep -q "^py-a" "$logs/ratings.log" && grep -q "^py-b" "$logs/ratings.log"
# ...and a third run rates nothing again.
timeout 60 "${ratings[@]}" >"$logs/again.log"
if grep -q "^rated" "$logs/again.log"; then
  echo "ratings.py rated a game twice" >&2
  exit 1
fi
echo "ratings: 1 passed, 0 failed"
