#!/usr/bin/env python3
"""pyffish (Fairy-Stockfish's Python binding) as the oracle of the wide family's SAN (test
tooling only: chessd never links or ships it). For every third position of a game's legal-move
file (`tests/data/wide-GAME.moves`, written by fsf_oracle.py from seeded random games), writes
`FEN<TAB>uci san uci san ...` with the SAN Fairy-Stockfish gives each legal move, the `+`
and `#` marks included:

  pip install pyffish==0.0.90
  tools/wide_san_oracle.py GAME > tests/data/wide-GAME.san

It first checks that pyffish's legal moves are the file's (the same engine, another build), and
stops if they are not; for Dice Chess, that the file's (one face's) are among pyffish's. Corner and Fortress are Fairy-Stockfish's `chess` from their own start;
bkhorde and massacre come from tools/fsf_variants.ini. Maharajah, Berolina and Legan have no
oracle (Fairy-Stockfish does not play them).
"""
import sys
from pathlib import Path

import pyffish as sf

# Capablanca Random's arrays castle as in Chess960 (the king takes its own rook in UCI).
CHESS960 = {"caparandom"}
FSF_NAME = {"corner": "chess", "fortress": "chess", "dice": "dark", "screen": "screenplay", "crazyscreen": "screenplay"}
# Dice Chess: FSF has no die; its king-capture moves are filtered by the face (fsf_dice.py),
# and SAN tells apart only pieces of one type, which one face keeps together.
DICE = {"dice", "dice10x10"}
INI = Path(__file__).resolve().parent / "fsf_variants.ini"


def main():
    game = sys.argv[1]
    data = Path(__file__).resolve().parent.parent / "tests" / "data" / f"wide-{game}.moves"
    is960 = game in CHESS960
    sf.load_variant_config(INI.read_text())
    name = FSF_NAME.get(game, game)
    for i, line in enumerate(data.read_text().splitlines()):
        if i % 3:
            continue
        fen, moves = line.split("\t")
        six = " ".join(fen.split()[:6])
        legal = sorted(sf.legal_moves(name, six, [], is960))
        if game in DICE:
            if not set(moves.split()) <= set(legal):
                sys.exit(f"{game} line {i + 1}: the file's moves are not pyffish's")
            legal = sorted(moves.split())
        elif legal != sorted(moves.split()):
            sys.exit(f"{game} line {i + 1}: pyffish's legal moves differ from the file's")
        pairs = [f"{m} {sf.get_san(name, six, m, is960)}" for m in legal]
        print(f"{fen}\t{' '.join(pairs)}")


if __name__ == "__main__":
    main()
