#!/usr/bin/env python3
"""Fairy-Stockfish as the oracle of the shogi family (test tooling only: chessd never links or
ships it; pyffish is GPL and only ever runs here, as a black box).

  tools/shogi_oracle.py check GAME --seed N --games G [--plies P]
  tools/shogi_oracle.py perft GAME DEPTH --fen FEN [--id NAME]   # suite lines from `go perft`
  tools/shogi_oracle.py pick GAME --seed N --count K               # busy middlegames (FEN)

`check` plays seeded random games (GAME is shogi or minishogi) with pyffish's legal moves and,
at every ply, compares the whole sorted legal-move list and the FEN with chessd's (the
`shogi_lines` example, built in release: $CHESSD_SHOGI, default
/tmp/tgt-sh29/release/examples/shogi_lines). Each ply is played on chessd's own FEN, so its
FEN writer, reader and move player are checked too. It prints each difference and exits 1 if
there was one.

Known, skipped difference: Fairy-Stockfish generates the pawn drop that mates at once
(uchifuzume), which chessd (per GAMES.md) does not. A ply where FSF's list has exactly those
extra moves -- pawn drops after which the opponent has no legal move in FSF -- counts as
`uchifuzume` in the summary, not as a difference, and the playout never plays such a move.
The playout also stops at FSF's game ends (no legal move, its repetition rule).

pyffish: `pip install pyffish`; perft uses /usr/games/fairy-stockfish or $FSF.
"""
import os
import random
import subprocess
import sys

import pyffish as sf

CHESSD = os.environ.get("CHESSD_SHOGI", "/tmp/tgt-sh29/release/examples/shogi_lines")
FSF = os.environ.get("FSF", "/usr/games/fairy-stockfish")
START = {
    "shogi": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1",
    "minishogi": "rbsgk/4p/5/P4/KGSBR[] w - - 0 1",
}


class Chessd:
    def __init__(self):
        self.p = subprocess.Popen([CHESSD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, game, fen, move=""):
        self.p.stdin.write(f"{game}\t{fen}\t{move}\n")
        self.p.stdin.flush()
        reply = self.p.stdout.readline().rstrip("\n")
        if reply.startswith("error:"):
            return reply, None
        fen, _, moves = reply.partition("\t")
        return fen, sorted(moves.split()) if moves else []


def mating_pawn_drops(game, fen, moves):
    """FSF's moves that are pawn drops leaving the opponent without a legal move."""
    return {m for m in moves if m.startswith("P@") and not sf.legal_moves(game, fen, [m])}


def check(game, seed, games, plies):
    rng = random.Random(seed)
    chessd = Chessd()
    stats = {"plies": 0, "diffs": 0, "uchifuzume": 0, "games": 0}
    for g in range(games):
        fen = START[game]
        my_fen, my_moves = chessd.ask(game, fen)
        for ply in range(plies):
            theirs = sorted(sf.legal_moves(game, fen, []))
            stats["plies"] += 1
            if my_moves is None:
                print(f"game {g} ply {ply}: chessd refused {fen}: {my_fen}")
                stats["diffs"] += 1
                break
            mine = set(my_moves)
            extra = set(theirs) - mine
            skip = set()
            if extra and not (mine - set(theirs)):
                skip = mating_pawn_drops(game, fen, extra)
                if skip == extra:
                    stats["uchifuzume"] += 1
                    extra = set()
            if extra or (mine - set(theirs)) or my_fen != fen:
                stats["diffs"] += 1
                print(f"game {g} ply {ply}: {fen}")
                if my_fen != fen:
                    print(f"  chessd FEN {my_fen}")
                print(f"  only FSF: {sorted(extra)}  only chessd: {sorted(mine - set(theirs))}")
                break
            playable = [m for m in theirs if m not in skip]
            if not playable:
                break
            move = rng.choice(playable)
            nxt = sf.get_fen(game, fen, [move])
            my_fen, my_moves = chessd.ask(game, my_fen, move)
            fen = nxt
            if sf.legal_moves(game, fen, []) == [] or sf.is_optional_game_end(game, fen, [])[0]:
                stats["plies"] += 1
                break
        stats["games"] += 1
    print(f"{game} seed {seed}: {stats['games']} games, {stats['plies']} positions compared, "
          f"{stats['uchifuzume']} skipped for FSF's mating pawn drop, {stats['diffs']} differences")
    return stats["diffs"] == 0


def fsf_perft(game, fen, depth):
    p = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    cmds = f"uci\nsetoption name UCI_Variant value {game}\nposition fen {fen}\ngo perft {depth}\nquit\n"
    out, _ = p.communicate(cmds)
    for line in out.splitlines():
        if line.startswith("Nodes searched"):
            return int(line.split(":")[1])
    raise SystemExit(f"no perft answer for {fen}")


def pick(game, seed, count):
    """FENs from random playouts with pieces in hand, promoted pieces or a check."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        fen = START[game]
        for ply in range(rng.randrange(20, 80)):
            moves = sf.legal_moves(game, fen, [])
            if not moves:
                break
            fen = sf.get_fen(game, fen, [rng.choice(moves)])
        hand = fen.split("[")[1].split("]")[0]
        if sf.legal_moves(game, fen, []) and len(hand) >= 2 and "+" in fen.split("[")[0]:
            found.append(fen)
    for fen in found:
        print(fen)


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)

    def opt(name, default=None):
        return args[args.index(name) + 1] if name in args else default

    cmd, game = args[0], args[1]
    if cmd == "check":
        ok = check(game, int(opt("--seed", 1)), int(opt("--games", 10)), int(opt("--plies", 200)))
        sys.exit(0 if ok else 1)
    elif cmd == "perft":
        depth = int(args[2])
        fen = opt("--fen", START[game])
        print(f"id {opt('--id', game)}\nepd {fen}")
        for d in range(1, depth + 1):
            print(f"perft {d} {fsf_perft(game, fen, d)}")
    elif cmd == "pick":
        pick(game, int(opt("--seed", 1)), int(opt("--count", 3)))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
