#!/usr/bin/env python3
"""A chessd bot in Python: plays one seat of one game, a legal move whenever it is its turn.

    python3 bot.py --addr 127.0.0.1:50051 --game 6H2VNYWZK5VPV --token 545a...

It uses the chessd-client package (clients/python: `pip install ../../clients/python`) and
needs no chess library: the server sends the legal moves (GetGame's `legal_moves`, in UCI and
SAN). The bot prefers a mating move (SAN ends in '#'), then a capture ('x'), else any.

Like the Rust example (examples/bot.rs) it
- watches the game (WatchGame from seq 0: a snapshot, then every event); the client reopens a
  broken stream after the last seq it delivered (no gap, no duplicate);
- moves with `expected_ply` and a `request_id`, so a retry after a lost answer never plays
  twice and a stale move fails with ABORTED instead of landing on the wrong position;
- learns its colour from the first answer (NOT_YOUR_TURN means it plays the other side);
- stops after the game-over event, or when the client's retries give up.
"""

import argparse
import random
import sys
from typing import Optional

import chessd_client as cc

# Patient: a bot waits out a server restart or a rate limit rather than forfeit on time.
RETRY = cc.RetryPolicy(attempts=20, initial_backoff=0.05, max_backoff=2.0)


def other(color: cc.Color) -> cc.Color:
    return cc.Color.BLACK if color == cc.Color.WHITE else cc.Color.WHITE


def choose(legal_moves) -> Optional[str]:
    mates = [m for m in legal_moves if m.san.endswith("#")]
    captures = [m for m in legal_moves if "x" in m.san]
    pool = mates or captures or list(legal_moves)
    return random.choice(pool).uci if pool else None


class Bot:
    def __init__(self, seat: cc.Seat):
        self.seat = seat
        self.ply = 0
        self.turn: Optional[cc.Color] = None  # the side to move, once known
        self.side: Optional[cc.Color] = None  # our side, once known
        self.moves_played = 0

    def my_turn(self) -> bool:
        return self.turn is not None and (self.side is None or self.side == self.turn)

    def move(self) -> None:
        """Submits a move for the position at self.ply."""
        game = self.seat.get_game()
        if game.ply != self.ply or game.status != cc.GameStatus.ONGOING:
            return  # the stream is behind; its next event will tell
        uci = choose(game.legal_moves)
        if uci is None:
            return
        try:
            self.seat.submit_move(
                uci,
                expected_ply=self.ply,
                # One id per ply and seat: a retry of this move is recognised, a later one not.
                request_id=f"bot-ply-{self.ply}",
                # The stream brings the new position: the answer need not carry the whole game.
                view=cc.GameView.BASIC,
            )
        except cc.ChessdError as err:
            if err.reason == "NOT_YOUR_TURN":
                self.side = other(self.turn)
                return
            if err.reason in ("PLY_MISMATCH", "GAME_OVER"):
                return  # stale position or a game that just ended: the stream says which
            raise
        self.side = self.turn
        self.moves_played += 1
        self.turn = None  # until the move event arrives

    def play(self):
        """Follows the game to its end; returns the outcome."""
        for event in self.seat.watch():
            kind = event.WhichOneof("event")
            if kind == "snapshot":
                game = event.snapshot
                if game.HasField("outcome"):
                    return game.outcome
                self.ply, self.turn = game.ply, cc.Color(game.turn)
            elif kind == "move_played":
                played = event.move_played.move
                self.ply, self.turn = played.ply, other(cc.Color(played.color))
            elif kind == "game_over":
                return event.game_over.outcome
            if self.my_turn():
                self.move()
        raise RuntimeError("the stream ended before the game did")


def main() -> None:
    parser = argparse.ArgumentParser(description="Plays one seat of a chessd game")
    parser.add_argument("--addr", default="127.0.0.1:50051", help="host:port of chessd")
    parser.add_argument("--game", required=True, help="the game id")
    parser.add_argument("--token", required=True, help="this seat's token from CreateGame")
    parser.add_argument("--tls", action="store_true", help="TLS with the system's roots")
    parser.add_argument("--ca", help="TLS with this CA certificate (PEM file)")
    args = parser.parse_args()
    roots = open(args.ca, "rb").read() if args.ca else None
    with cc.Client(args.addr, tls=args.tls, root_certificates=roots, retry=RETRY) as client:
        bot = Bot(client.seat(args.game, args.token))
        try:
            outcome = bot.play()
        except cc.ChessdError as err:
            sys.exit(f"bot: {err}")
    side = {cc.Color.WHITE: "white", cc.Color.BLACK: "black"}.get(bot.side, "no side")
    termination = cc.Termination(outcome.termination).name
    print(f"game over: {outcome.pgn_result} ({termination}), I played {side}, "
          f"{bot.moves_played} moves")


if __name__ == "__main__":
    main()
