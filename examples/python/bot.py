#!/usr/bin/env python3
"""A chessd bot in Python: plays one seat of one game, a legal move whenever it is its turn.

    python3 bot.py --addr 127.0.0.1:50051 --game 6H2VNYWZK5VPV --token 545a...

It needs no chess library: the server sends the legal moves (GetGame's `legal_moves`, in UCI
and SAN). The bot prefers a mating move (SAN ends in '#'), then a capture ('x'), else any.

Like the Rust example (examples/bot.rs) it
- watches the game (WatchGame from seq 0: a snapshot, then every event) and remembers the
  seq of the last message;
- moves with `expected_ply` and a `request_id`, so a retry after a lost answer never plays
  twice and a stale move fails with ABORTED instead of landing on the wrong position;
- learns its colour from the first answer (NOT_YOUR_TURN means it plays the other side);
- when the stream breaks, watches again after the last seq it saw (no gap, no duplicate);
- stops after the game-over event, or after MAX_FAILURES failures in a row.
"""

import argparse
import os
import random
import sys
import time

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))
try:
    from chessd.v1 import chessd_pb2 as pb
    from chessd.v1 import chessd_pb2_grpc as pb_grpc
except ImportError:
    sys.exit("no stubs: run ./gen_stubs.sh first")

MAX_FAILURES = 20
CALL_TIMEOUT = 10.0
RETRYABLE = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.INTERNAL,
    grpc.StatusCode.RESOURCE_EXHAUSTED,  # WATCHER_TOO_SLOW: resume from the last seq
}


def reason(error):
    """The google.rpc.ErrorInfo reason of a refusal ("" if it has none)."""
    status = rpc_status.from_call(error)
    if status is None:
        return ""
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return ""


def retry_after(error):
    """Seconds a RATE_LIMITED refusal asks to wait (its google.rpc.RetryInfo), 1 ms to 5 s."""
    status = rpc_status.from_call(error)
    delay = 0.1
    for detail in status.details if status is not None else []:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            delay = info.retry_delay.seconds + info.retry_delay.nanos / 1e9
    return min(max(delay, 0.001), 5.0)


def backoff(failures):
    return min(0.05 * 2 ** min(failures, 6), 2.0)


def other(color):
    return pb.COLOR_BLACK if color == pb.COLOR_WHITE else pb.COLOR_WHITE


def choose(legal_moves):
    mates = [m for m in legal_moves if m.san.endswith("#")]
    captures = [m for m in legal_moves if "x" in m.san]
    pool = mates or captures or list(legal_moves)
    return random.choice(pool).uci if pool else None


class Bot:
    def __init__(self, stub, game_id, token):
        self.stub = stub
        self.game_id = game_id
        self.auth = [("authorization", f"Bearer {token}")]
        self.last_seq = 0
        self.ply = 0
        self.turn = None  # the side to move, once known
        self.side = None  # our side, once known
        self.moves_played = 0

    def my_turn(self):
        return self.turn is not None and (self.side is None or self.side == self.turn)

    def move(self):
        """Submits a move for the position at self.ply; retries a lost answer."""
        game = self.stub.GetGame(
            pb.GetGameRequest(game_id=self.game_id), timeout=CALL_TIMEOUT
        ).game
        if game.ply != self.ply or game.status != pb.GAME_STATUS_ONGOING:
            return  # the stream is behind; its next event will tell
        uci = choose(game.legal_moves)
        if uci is None:
            return
        request = pb.SubmitMoveRequest(
            game_id=self.game_id,
            move=uci,
            expected_ply=self.ply,
            # One id per ply and seat: a retry of this move is recognised, a later one not.
            request_id=f"bot-ply-{self.ply}",
            # The stream brings the new position: the answer need not carry the whole game.
            view=pb.GAME_VIEW_BASIC,
        )
        failures = 0
        while True:
            try:
                self.stub.SubmitMove(request, metadata=self.auth, timeout=CALL_TIMEOUT)
                self.side = self.turn
                self.moves_played += 1
                self.turn = None  # until the move event arrives
                return
            except grpc.RpcError as error:
                code, why = error.code(), reason(error)
                if why == "NOT_YOUR_TURN":
                    self.side = other(self.turn)
                    return
                if code == grpc.StatusCode.ABORTED or why == "GAME_OVER":
                    return  # stale position or a game that just ended: the stream says which
                if why == "RATE_LIMITED":
                    # Over the server's rate limit: wait as long as it says and send the same
                    # move again (the request id makes that safe); not a failure.
                    time.sleep(retry_after(error))
                    continue
                if code not in RETRYABLE:
                    raise
                failures += 1
                if failures >= MAX_FAILURES:
                    raise
                time.sleep(backoff(failures))

    def apply(self, message):
        """Takes in one stream message; returns the outcome when the game is over."""
        self.last_seq = max(self.last_seq, message.seq)
        kind = message.WhichOneof("event")
        if kind == "snapshot":
            game = message.snapshot
            if game.HasField("outcome"):
                return game.outcome
            self.ply, self.turn = game.ply, game.turn
        elif kind == "move_played":
            played = message.move_played.move
            self.ply, self.turn = played.ply, other(played.color)
        elif kind == "game_over":
            return message.game_over.outcome
        return None

    def play(self):
        failures = 0
        while True:
            try:
                stream = self.stub.WatchGame(
                    pb.WatchGameRequest(game_id=self.game_id, after_seq=self.last_seq)
                )
                if self.my_turn():
                    self.move()
                for message in stream:
                    failures = 0
                    outcome = self.apply(message)
                    if outcome is not None:
                        return outcome
                    if self.my_turn():
                        self.move()
                error_text = "stream ended"
            except grpc.RpcError as error:
                if error.code() not in RETRYABLE:
                    raise
                error_text = f"{error.code().name} {error.details()}"
            failures += 1
            if failures >= MAX_FAILURES:
                raise RuntimeError(f"giving up: {error_text}")
            print(f"bot: stream broke ({error_text}), watching again after seq {self.last_seq}",
                  file=sys.stderr)
            time.sleep(backoff(failures))


def main():
    parser = argparse.ArgumentParser(description="Plays one seat of a chessd game")
    parser.add_argument("--addr", default="127.0.0.1:50051", help="host:port of chessd")
    parser.add_argument("--game", required=True, help="the game id")
    parser.add_argument("--token", required=True, help="this seat's token from CreateGame")
    args = parser.parse_args()
    with grpc.insecure_channel(args.addr) as channel:
        bot = Bot(pb_grpc.GameServiceStub(channel), args.game, args.token)
        try:
            outcome = bot.play()
        except grpc.RpcError as error:
            sys.exit(f"bot: {error.code().name}: {error.details()} ({reason(error)})")
    side = {pb.COLOR_WHITE: "white", pb.COLOR_BLACK: "black"}.get(bot.side, "no side")
    termination = pb.Termination.Name(outcome.termination)
    print(f"game over: {outcome.pgn_result} ({termination}), I played {side}, "
          f"{bot.moves_played} moves")


if __name__ == "__main__":
    main()
