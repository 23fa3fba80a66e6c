#!/usr/bin/env python3
"""Fairy-Stockfish as the oracle of Dice Chess and Dice Chess 10x10 (test tooling only: chessd
never links or ships it). FSF has no die; as GAMES.md says, its king-capture moves (`dark` and
`dice10x10` of tools/fsf_variants.ini, read through pyffish) are filtered by the face here:

  pip install pyffish==0.0.90
  tools/fsf_dice.py perft GAME DEPTH --fen FEN [--fen FEN]...  >> tests/data/wide-GAME.perft
  tools/fsf_dice.py moves GAME --seed N --games G [--plies P]     > tests/data/wide-GAME.moves

GAME: dice or dice10x10. A FEN carries the roll as its seventh field (`-` before the roll).

The die, from GAMES.md: face n (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king) allows
the moves of the pieces of that type; on faces 2 to 5 also a pawn's promotion to the face's
piece, and to no other. A face can come up when a piece of its type has a move (a promotion
on another face does not count).

Perft, as chessd defines it for these games: from a position with a roll, the moves on that
face; after each move, the sum over every face that can come up in the new position of the
count from there with that roll; from a position without a roll, that sum at once. `perft`
prints suite lines (id / epd / perft DEPTH NODES). `moves` plays seeded random games (a random
face among those that can come up, then a random move on it) and prints, for every position
reached and every face that can come up there, `FEN with that roll<TAB>sorted moves on it`.
"""
import random
import sys
from pathlib import Path

import pyffish as sf

INI = Path(__file__).resolve().parent / "fsf_variants.ini"
FSF_NAME = {"dice": "dark", "dice10x10": "dice10x10"}
START = {
    "dice": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "dice10x10": "rnbqkkqbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKQBNR w - - 0 1",
}
FACES = "pnbrqk"  # face n is FACES[n - 1]


def board(fen):
    """Square name -> piece letter, from a FEN's first field (files a.., ranks may be 10)."""
    rows, out = fen.split()[0].split("/"), {}
    for r, row in enumerate(rows):
        f, digits = 0, ""
        for c in row + "/":
            if c.isdigit():
                digits += c
                continue
            f += int(digits or 0)
            digits = ""
            if c != "/":
                out[f"{chr(97 + f)}{len(rows) - r}"] = c
                f += 1
    return out


def split(move):
    """(from, to, promotion letter or '') of a UCI move with ranks up to 10."""
    i = 2 if move[2].isalpha() else 3
    frm, rest = move[:i], move[i:]
    promo = rest[-1] if rest[-1].isalpha() else ""
    return frm, rest[: len(rest) - len(promo)], promo


def mover(b, move):
    return b[split(move)[0]].lower()


def on_face(b, move, face):
    kind, promo = mover(b, move), split(move)[2]
    want = FACES[face - 1]
    if kind == "p" and face != 1:
        return 2 <= face <= 5 and promo == want
    return kind == want


class Dice:
    def __init__(self, game):
        sf.load_variant_config(INI.read_text())
        self.name = FSF_NAME[game]

    def moves(self, fen6):
        return sf.legal_moves(self.name, fen6, [])

    def faces(self, fen6):
        b = board(fen6)
        kinds = {mover(b, m) for m in self.moves(fen6)}
        return [n for n in range(1, 7) if FACES[n - 1] in kinds]

    def on(self, fen6, face):
        b = board(fen6)
        return sorted(m for m in self.moves(fen6) if on_face(b, m, face))

    def after(self, fen6, move):
        return sf.get_fen(self.name, fen6, [move])

    def perft(self, fen6, roll, depth):
        if depth == 0:
            return 1
        if roll is None:
            return sum(self.perft(fen6, f, depth) for f in self.faces(fen6))
        moves = self.on(fen6, roll)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.after(fen6, m), None, depth - 1) for m in moves)


def parse(fen):
    """(six-field FEN, roll or None) of a FEN with an optional seventh field."""
    fields = fen.split()
    roll = fields[6] if len(fields) > 6 else "-"
    return " ".join(fields[:6]), (None if roll == "-" else int(roll))


def main():
    cmd, game = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    dice = Dice(game)
    if cmd == "perft":
        depth = int(args[0])
        fens = [args[i + 1] for i, a in enumerate(args) if a == "--fen"] or [START[game] + " -"]
        for i, fen in enumerate(fens):
            fen6, roll = parse(fen)
            print(f"\nid {game}-{i}\nepd {fen}")
            for d in range(1, depth + 1):
                print(f"perft {d} {dice.perft(fen6, roll, d)}", flush=True)
    elif cmd == "moves":
        rng = random.Random(int(opt("--seed", "1")))
        for _ in range(int(opt("--games", "4"))):
            fen6 = START[game]
            for _ in range(int(opt("--plies", "120"))):
                faces = dice.faces(fen6)
                for f in faces:
                    print(f"{fen6} {f}\t{' '.join(dice.on(fen6, f))}")
                if not faces:
                    print(f"{fen6} -\t")
                    break
                face = rng.choice(faces)
                fen6 = dice.after(fen6, rng.choice(dice.on(fen6, face)))


if __name__ == "__main__":
    main()
