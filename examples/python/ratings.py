#!/usr/bin/env python3
"""A ratings service on chessd's feed: Elo ratings from every finished game, exactly once.

    python3 ratings.py --addr 127.0.0.1:50051 --state ratings.json [--api-key KEY]
                       [--label tournament=spring] [--exit-when-idle 2]

It follows WatchGames (the deployment's feed, through chessd-client's ``watch_games``) and,
for each GameFinished with a result, updates both players' ratings (K = 32, start 1500). A
player is its bound player id when the game has one, else its display name.

Exactly once, across crashes of this process and restarts or failovers of chessd: the state
file holds the ratings *and* the cursor of the last event they include, and is replaced
atomically (write, fsync, rename) after every event. On start the service resumes after that
cursor, so an event is either in the file with its cursor or will be delivered again. The
client reopens a broken stream after the last cursor by itself. A cursor older than the
server's --feed-retention is refused (CURSOR_OUT_OF_RANGE): the service stops and says so,
since games were missed and need a ListGames reconciliation, never a silent gap.

``--exit-when-idle SECONDS`` ends the service after that long without an event (for scripts
and the CI check); without it, it runs until interrupted.
"""

import argparse
import json
import os
import sys
import time
from typing import Dict

import chessd_client as cc

K = 32.0
START = 1500.0


def load(path: str) -> dict:
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return {"cursor": "", "ratings": {}, "games": 0}


def save(path: str, state: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def rate(ratings: Dict[str, float], white: str, black: str, score: float) -> None:
    """Elo: ``score`` is White's (1, 0.5 or 0)."""
    rw, rb = ratings.get(white, START), ratings.get(black, START)
    expected = 1 / (1 + 10 ** ((rb - rw) / 400))
    ratings[white] = round(rw + K * (score - expected), 1)
    ratings[black] = round(rb - K * (score - expected), 1)


SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("--state", required=True, help="JSON file: ratings and cursor")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--label", action="append", default=[], help="key=value (repeatable)")
    parser.add_argument("--exit-when-idle", type=float, default=None, metavar="SECONDS")
    args = parser.parse_args()
    labels = {}
    for pair in args.label:
        key, sep, value = pair.partition("=")
        if not sep:
            parser.error(f"--label wants key=value, not {pair!r}")
        labels[key] = value

    state = load(args.state)
    retry = cc.RetryPolicy(attempts=30, initial_backoff=0.1, max_backoff=2.0)
    with cc.Client(args.addr, api_key=args.api_key, retry=retry) as client:
        quiet_since = time.monotonic()
        try:
            for event in client.watch_games(state["cursor"], labels=labels, heartbeats=True):
                kind = event.WhichOneof("event")
                if kind == "game_finished":
                    quiet_since = time.monotonic()
                    done = event.game_finished
                    score = SCORES.get(done.outcome.pgn_result)
                    if score is not None:  # aborted games have no result
                        g = done.game
                        white = g.white_player_id or g.white_player or "?"
                        black = g.black_player_id or g.black_player or "?"
                        rate(state["ratings"], white, black, score)
                        state["games"] += 1
                        print(f"rated {g.game_id}: {white} {done.outcome.pgn_result} {black}",
                              flush=True)
                elif kind == "game_created":
                    quiet_since = time.monotonic()
                # Every message's cursor, heartbeats' too: resuming later reads nothing twice.
                if event.cursor and event.cursor != state["cursor"]:
                    state["cursor"] = event.cursor
                    save(args.state, state)
                idle = time.monotonic() - quiet_since
                if args.exit_when_idle is not None and idle >= args.exit_when_idle:
                    break
        except cc.ChessdError as err:
            if err.reason == "CURSOR_OUT_OF_RANGE":
                print(f"events were missed: the cursor is past the server's retention "
                      f"(oldest kept: {err.metadata.get('oldest_cursor', '?')}); "
                      "reconcile with ListGames, then start again without a cursor",
                      file=sys.stderr)
                return 1
            raise
    for player, rating in sorted(state["ratings"].items(), key=lambda kv: -kv[1]):
        print(f"{player}\t{rating}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
