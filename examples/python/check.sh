#!/usr/bin/env bash
# CI check of the Python bot: generates the stubs, starts chessd on a loopback port, creates a
# game and lets two Python bots play it to the end. Bounded: the server and bots are stopped
# after 120 s whatever happens.
# Usage: examples/python/check.sh [path/to/chessd]   (default: target/debug/chessd)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
chessd="${1:-$here/../../target/debug/chessd}"
port="${CHESSD_PY_PORT:-50077}"
if [ ! -x "$chessd" ]; then
  echo "check.sh: no chessd binary at $chessd (build it with cargo build --bin chessd)" >&2
  exit 1
fi
python3 -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$here/gen_stubs.sh" >/dev/null
timeout 120 "$chessd" serve --listen "127.0.0.1:$port" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
cd "$here"
game=$(timeout 30 python3 - "$port" <<'PY'
import sys, time
sys.path.insert(0, "gen")
import grpc
from chessd.v1 import chessd_pb2 as pb, chessd_pb2_grpc as pb_grpc
with grpc.insecure_channel(f"127.0.0.1:{sys.argv[1]}") as channel:
    grpc.channel_ready_future(channel).result(timeout=20)
    r = pb_grpc.GameServiceStub(channel).CreateGame(
        pb.CreateGameRequest(variant=pb.VARIANT_CHESS, white_player="py-a", black_player="py-b"))
    print(r.game.game_id, r.white_token, r.black_token)
PY
)
read -r id white black <<<"$game"
timeout 120 python3 bot.py --addr "127.0.0.1:$port" --game "$id" --token "$black" >"$here/gen/black.log" 2>&1 &
bot=$!
timeout 120 python3 bot.py --addr "127.0.0.1:$port" --game "$id" --token "$white" | tee "$here/gen/white.log"
wait "$bot"
cat "$here/gen/black.log"
grep -q "game over" "$here/gen/white.log" && grep -q "game over" "$here/gen/black.log"
echo "pybot: 1 passed, 0 failed"
