#!/usr/bin/env python3
"""Screen and Crazy Screen Chess's starts against Fairy-Stockfish: draws seeded halves as
GAMES.md allows them (Screen: pawns on eight files and off the first rank, bishops on both
colours; Crazy Screen: anywhere on the own half), joins them as chessd does (Black's four rows,
then White's; `w - - 0 1`), skips the starts decided at once (Black's king attacked), and
prints a perft suite (`id` / `epd` / `perft DEPTH NODES`) counted by FSF with the
`screenplay` definition of fsf_variants.ini (chess without castling).

usage: fsf_screen.py screen|crazyscreen --seed N --starts K --depth D
"""
import argparse
import random
import sys

from fsf_oracle import INI_GAMES, Engine

INI_GAMES.add("screenplay")
_ENGINE = []

ARMY = "KQRRBBNNPPPPPPPP"


def half(rng, crazy):
    """White's half as a rank-major list of 32 cells (rank 1 first), re-drawn until legal."""
    while True:
        cells = [None] * 32
        squares = rng.sample(range(32), 16)
        for sq, piece in zip(squares, ARMY):
            cells[sq] = piece
        if crazy:
            return cells
        pawns = [sq for sq in range(32) if cells[sq] == "P"]
        bishops = [sq for sq in range(32) if cells[sq] == "B"]
        if any(sq < 8 for sq in pawns):
            continue
        if len({sq % 8 for sq in pawns}) != 8:
            continue
        if (bishops[0] % 8 + bishops[0] // 8) % 2 == (bishops[1] % 8 + bishops[1] // 8) % 2:
            continue
        return cells


def rows(cells, black):
    """FEN rows, top to bottom: White's ranks 4..1; Black's mirror (its rank 8 is White's 1)."""
    out = []
    order = range(4) if black else range(3, -1, -1)
    for r in order:
        row, empty = "", 0
        for f in range(8):
            c = cells[r * 8 + f]
            if c is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += c.lower() if black else c
        out.append(row + (str(empty) if empty else ""))
    return out


def black_king_attacked(engine, fen):
    """Whether White, to move, attacks Black's king: Black to move then shows checkers."""
    engine.send(f"position fen {fen.replace(' w ', ' b ')}")
    engine.send("d")
    for line in engine.wait("Checkers"):
        if line.startswith("Checkers:"):
            return line.split(":", 1)[1].strip() != ""
    return False


def seeded_start(rng, crazy):
    """The next start of `rng` that is played (Black's king not attacked)."""
    if not _ENGINE:
        _ENGINE.append(Engine("screenplay"))
    while True:
        white = rows(half(rng, crazy), False)
        black = rows(half(rng, crazy), True)
        fen = "/".join(black + white) + " w - - 0 1"
        if not black_king_attacked(_ENGINE[0], fen):
            return fen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("game", choices=["screen", "crazyscreen"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--starts", type=int, default=4)
    ap.add_argument("--depth", type=int, default=4)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    engine = Engine("screenplay")
    print(f"# {a.game}: perft counts from Fairy-Stockfish (/usr/games/fairy-stockfish, `go perft`,")
    print("# the `screenplay` definition of tools/fsf_variants.ini: chess without castling), written by")
    print(f"# crates/rules/tools/fsf_screen.py {a.game} --seed {a.seed} --starts {a.starts} --depth {a.depth}.")
    print("# Each start is two seeded halves joined; starts with Black's king attacked are skipped.")
    made = 0
    while made < a.starts:
        crazy = a.game == "crazyscreen"
        white = rows(half(rng, crazy), False)
        black = rows(half(rng, crazy), True)
        fen = "/".join(black + white) + " w - - 0 1"
        if black_king_attacked(engine, fen):
            print(f"# decided: {fen}")
            continue
        made += 1
        print()
        print(f"id {a.game}-{made}")
        print(f"epd {fen}")
        for d in range(1, a.depth + 1):
            _, nodes = engine.divide(fen, d)
            print(f"perft {d} {nodes}")


if __name__ == "__main__":
    main()
