#!/usr/bin/env python3
"""Generate reference test data for chessd's rules engine.

chessd implements standard chess, Racing Kings and the other lichess
variants in Rust (crate ``crates/rules``).  To test it against something we
did not write ourselves, this script uses python-chess (PyPI package
``chess``) as an independent oracle and writes the JSON files that the Rust
tests read: the three below, and one per other variant written by
``gen_variants.py`` (see its docstring):

``reference-chess.json`` / ``reference-racingkings.json``
    ~300 positions each.  Every record is computed on a board built
    *fresh* from its FEN (no move history)::

        {"fen": ..., "perft": [d1, d2, ...], "in_check": bool,
         "moves": [{"uci": ..., "san": ..., "fen": <FEN after>}, ...],
         "outcome": null | {"result": "1-0"|"0-1"|"1/2-1/2",
                            "termination": "checkmate"|...}}

    ``moves`` lists every legal move sorted by UCI string.  ``perft``
    continues to deeper depths while the next depth is estimated to stay
    within ``--perft-cap`` nodes.  ``outcome`` is
    ``board.outcome(claim_draw=False)`` with python's Termination enum name
    lower-cased.

``reference-games.json``
    ~150 move sequences (both variants) with per-ply facts computed on the
    board *with full history* after the ply is pushed::

        {"variant": "chess"|"racingkings", "start_fen": ...,
         "plies": [{"uci", "san", "fen", "threefold_now", "fifty_now",
                    "fivefold", "seventyfive", "outcome"}, ...]}

    with ``threefold_now = board.is_repetition(3)``,
    ``fifty_now = board.halfmove_clock >= 100``,
    ``fivefold = board.is_fivefold_repetition()``,
    ``seventyfive = board.is_seventyfive_moves()`` and ``outcome`` as above.
    A game stops at the first ply with a non-null outcome or at a length cap.

Conventions inherited from python-chess (the Rust side must match them):

* FENs are ``board.fen()``: the en-passant field is only written when a
  *legal* en-passant capture exists; castling rights are the "clean" ones.
* Perft is the pure legal-move tree (insufficient material, repetition and
  the 75-move rule do not stop it); a Racing Kings position whose race is
  decided (``is_variant_end()``) has no legal moves.
* Repetition compares ``board._transposition_key()``: placement, side to
  move, castling rights and the en-passant square only if an en-passant
  capture is actually legal.

Positions come from biased random playouts (captures, castling, en passant,
promotions and checks are favoured in chess; advancing king moves in Racing
Kings), from known tricky perft positions, and from targeted random searches
for rare situations (mates, stalemates, double checks, insufficient
material, illegal en passant, castling through attacked squares, Racing
Kings finishes and stalemates).  Everything is driven by one seeded
``random.Random`` so a rerun with the same seed and python-chess version
produces byte-identical files.

This is a test tool only; python-chess is never a runtime dependency of
chessd.  Usage::

    nice python3 tools/gen_reference.py [--out-dir DIR] [--seed N]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import chess
import chess.variant

# ---------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------

CHESS = "chess"
RK = "racingkings"

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
RK_START = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"

# The tricky start positions requested for chess playouts (Kiwipete and the
# well-known chessprogramming.org perft positions 3, 4 and 5).
TRICKY_CHESS = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
]

# Classic hand-made perft trap positions (illegal en passant, en passant
# check evasions, castling giving check, promotions out of/into check,
# self-stalemate ...).  Parents of interesting positions: perft depth >= 2
# exercises the trap.
CHESS_TRAPS = [
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",        # d7d5 makes cxd6 e.p. illegal (rank pin)
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",       # d2d4 makes cxd3 e.p. illegal (diagonal pin)
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",      # e.p. capture gives check
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",           # short castling gives check
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",           # long castling gives check
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",  # castling rights vs attacks
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",   # castling prevented
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",        # promote out of check
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",      # discovered check
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",           # promote to give check
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",            # underpromote to check
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",            # self stalemate
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",           # stalemate & checkmate
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",        # stalemate & checkmate 2
    # Illegal-e.p. parents with the pin along the rank, for both colours:
    "8/8/8/8/k4p1R/8/4P3/4K3 w - - 0 1",        # e2e4: fxe3 e.p. exposes Ka4
    "4k3/3p4/8/r3P2K/8/8/8/8 b - - 0 1",        # d7d5: exd6 e.p. exposes Kh5
    "8/4p3/8/1K1P3q/8/8/8/7k b - - 0 1",        # e7e5: dxe6 e.p. exposes Kb5
    # Legal e.p. that resolves a pawn check, and one that does not:
    "8/8/8/4k3/4p3/8/3P4/4K3 w - - 0 1",        # d2d4 gives check; exd3 e.p. evades
    "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1",        # d2d4: exd3 e.p. would expose Ka4 to Qh4
]

# Sparse starts for long quiet "wandering" games (fifty / seventy-five).
WANDER_CHESS_STARTS = [
    "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    "8/8/3k4/8/8/3K4/8/2Q5 b - - 0 1",
    "8/2k5/8/8/8/5B2/8/1N2K3 w - - 0 1",
    "r7/8/3k4/8/8/8/3K4/7R w - - 0 1",
    "8/8/2k5/2n5/8/8/4K3/4R3 w - - 0 1",
    "6k1/8/8/3q4/8/8/1Q6/4K3 b - - 0 1",
    "8/8/8/3k4/8/2K5/1B6/6B1 w - - 0 1",
    "8/1k6/8/8/8/8/5KR1/3b4 w - - 0 1",
    "4k3/p7/P7/8/8/8/8/4K2R w - - 0 1",   # blocked pawns: material stays sufficient
    "8/8/8/8/8/2k5/8/R3K1N1 b - - 0 1",
]
WANDER_RK_STARTS = [
    "8/8/8/8/8/8/kr4RK/8 w - - 0 1",
    "8/8/8/8/8/8/k1n3NK/8 w - - 0 1",
    "8/8/8/8/8/8/kb4BK/8 w - - 0 1",
    "8/8/8/8/8/8/kq4QK/8 w - - 0 1",
    "8/8/8/8/8/8/k6K/1nr2RN1 w - - 0 1",
    "8/8/8/8/8/8/kb2N2K/8 b - - 0 1",
]

MAX_GAME_PLIES = 400


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------

def make_board(variant: str, fen: Optional[str]) -> chess.Board:
    """A board of the right class; ``fen=None`` gives an empty board."""
    if variant == CHESS:
        return chess.Board(fen)
    return chess.variant.RacingKingsBoard(fen)


def outcome_json(board: chess.Board) -> Optional[dict]:
    """python-chess's automatic outcome (no draw claims) as a JSON object."""
    outcome = board.outcome(claim_draw=False)
    if outcome is None:
        return None
    return {"result": outcome.result(), "termination": outcome.termination.name.lower()}


def legal_moves(board: chess.Board) -> List[chess.Move]:
    """Legal moves in a canonical (UCI-sorted) order, for determinism."""
    return sorted(board.legal_moves, key=lambda m: m.uci())


def perft(board: chess.Board, depth: int) -> int:
    """Plain perft over ``board.legal_moves``; depth 1 is bulk-counted."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def perft_series(board: chess.Board, cap: int, max_depth: int = 8) -> List[int]:
    """Perft counts for depth 1, 2, ... .

    Always has depth 1.  Stops after a count of 0 or above ``cap``, or when
    the next depth is estimated (last count times the largest branching
    factor seen so far) to exceed ``cap``.
    """
    counts: List[int] = []
    max_branching = 0.0
    while len(counts) < max_depth:
        n = perft(board, len(counts) + 1)
        prev = counts[-1] if counts else 1
        counts.append(n)
        if n == 0 or n > cap:
            break
        max_branching = max(max_branching, n / prev)
        if n * max_branching > cap:
            break
    return counts


def position_record(variant: str, fen: str, cap: int) -> dict:
    """The full reference record for one position, from a fresh board."""
    board = make_board(variant, fen)
    assert board.fen() == fen, (fen, board.fen())
    moves = []
    for move in legal_moves(board):
        san = board.san(move)
        board.push(move)
        after = board.fen()
        board.pop()
        moves.append({"uci": move.uci(), "san": san, "fen": after})
    return {
        "fen": fen,
        "perft": perft_series(board, cap),
        "in_check": board.is_check(),
        "moves": moves,
        "outcome": outcome_json(board),
    }


def weighted_choice(rng: random.Random, moves: Sequence[chess.Move],
                    weights: Sequence[float]) -> chess.Move:
    return rng.choices(moves, weights=weights, k=1)[0]


# ---------------------------------------------------------------------------
# Biased move choice
# ---------------------------------------------------------------------------

def chess_weight(board: chess.Board, move: chess.Move) -> float:
    """Favour the special moves a rules engine is most likely to get wrong."""
    w = 1.0
    if board.is_capture(move):
        w *= 6
    if board.is_en_passant(move):
        w *= 10
    if board.is_castling(move):
        w *= 8
    if move.promotion:
        w *= 8  # every promotion piece gets the same weight: underpromotions too
    if board.gives_check(move):
        w *= 5
        board.push(move)
        if board.is_checkmate():
            w *= 20
        board.pop()
    return w


def rk_weight(board: chess.Board, move: chess.Move) -> float:
    """Favour king moves toward rank 8 so that races actually finish."""
    w = 1.0
    if board.piece_type_at(move.from_square) == chess.KING:
        rise = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
        if rise > 0:
            w *= 1 + 5 * rise
        if chess.square_rank(move.to_square) == 7:
            w *= 10
    if board.is_capture(move):
        w *= 3
    return w


def weight_fn(variant: str) -> Callable[[chess.Board, chess.Move], float]:
    return chess_weight if variant == CHESS else rk_weight


def biased_move(board: chess.Board, rng: random.Random, variant: str) -> chess.Move:
    moves = legal_moves(board)
    fn = weight_fn(variant)
    return weighted_choice(rng, moves, [fn(board, m) for m in moves])


def playout(variant: str, start_fen: str, rng: random.Random, max_plies: int) -> List[str]:
    """FENs along one biased random game (including the start)."""
    board = make_board(variant, start_fen)
    fens = [board.fen()]
    for _ in range(max_plies):
        if board.is_game_over():
            break
        board.push(biased_move(board, rng, variant))
        fens.append(board.fen())
    return fens


# ---------------------------------------------------------------------------
# Random sparse positions
# ---------------------------------------------------------------------------

SquareFilter = Optional[Callable[[int], bool]]


def light(sq: int) -> bool:
    return bool(chess.BB_SQUARES[sq] & chess.BB_LIGHT_SQUARES)


def dark(sq: int) -> bool:
    return bool(chess.BB_SQUARES[sq] & chess.BB_DARK_SQUARES)


def random_board(rng: random.Random, variant: str,
                 pieces: Sequence[Tuple[str, SquareFilter]],
                 turn: chess.Color) -> Optional[chess.Board]:
    """Place ``pieces`` (symbol, optional square filter) at random.

    Returns the board if python-chess considers it valid (for Racing Kings
    this includes "nobody in check"), else None.
    """
    board = make_board(variant, None)
    board.turn = turn
    for symbol, ok in pieces:
        piece = chess.Piece.from_symbol(symbol)
        free = [sq for sq in chess.SQUARES
                if board.piece_at(sq) is None and (ok is None or ok(sq))]
        if piece.piece_type == chess.PAWN:
            free = [sq for sq in free if 1 <= chess.square_rank(sq) <= 6]
        if not free:
            return None
        board.set_piece_at(rng.choice(free), piece)
    if not board.is_valid():
        return None
    if variant == RK:
        # Black to move with Black's king already home cannot arise.
        bk = board.king(chess.BLACK)
        if board.turn == chess.BLACK and chess.square_rank(bk) == 7:
            return None
    return board


def plain(*symbols: str) -> List[Tuple[str, SquareFilter]]:
    return [(s, None) for s in symbols]


def rank_is(*ranks: int) -> Callable[[int], bool]:
    return lambda sq: chess.square_rank(sq) in ranks


# ---------------------------------------------------------------------------
# Ordered, de-duplicated candidate collection
# ---------------------------------------------------------------------------

class Collector:
    """Insertion-ordered set of FENs with a per-category tally."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.fens: Dict[str, str] = {}

    def add(self, fen: str, category: str) -> bool:
        fen = make_board(self.variant, fen).fen()  # normalise (legal e.p. only)
        if fen in self.fens:
            return False
        self.fens[fen] = category
        return True

    def count(self, category: str) -> int:
        return sum(1 for c in self.fens.values() if c == category)

    def __len__(self) -> int:
        return len(self.fens)


# ---------------------------------------------------------------------------
# Chess position selection
# ---------------------------------------------------------------------------

def collect_chess_positions(rng: random.Random, target: int) -> Collector:
    col = Collector(CHESS)
    for fen in [CHESS_START] + TRICKY_CHESS + CHESS_TRAPS:
        col.add(fen, "fixed")
    # Children of the trap positions (double pushes creating e.p. squares etc.).
    for fen in CHESS_TRAPS:
        board = chess.Board(fen)
        for move in legal_moves(board):
            if board.is_zeroing(move) and board.piece_type_at(move.from_square) == chess.PAWN \
                    and abs(move.to_square - move.from_square) == 16:
                board.push(move)
                col.add(board.fen(), "fixed")
                board.pop()

    mated = stalemated = 0

    def note_terminal(board: chess.Board) -> None:
        nonlocal mated, stalemated
        if board.is_checkmate():
            mated += 1
        elif board.is_stalemate():
            stalemated += 1

    # 1. Biased random playouts, sampled at several plies.
    starts = [CHESS_START] * 34 + TRICKY_CHESS * 3
    ep_positions = 0
    for start in starts:
        fens = playout(CHESS, start, rng, 250)
        # Positions with a legal en-passant capture are rare at random plies:
        # keep the first one of each playout (board.fen() only shows legal e.p.).
        ep_fens = [f for f in fens if f.split()[3] != "-"]
        if ep_fens and ep_positions < 15:
            ep_positions += col.add(ep_fens[0], "en-passant")
        if len(fens) > 1:
            col.add(fens[rng.randrange(1, len(fens))], "playout")
        final = chess.Board(fens[-1])
        if final.is_game_over():
            if col.add(fens[-1], "playout-end"):
                note_terminal(final)
            col.add(fens[-2], "playout-pre-end")

    # 2. Mates and stalemates from random sparse positions: try every move
    #    of a random position and keep the parent and the terminal child.
    materials = [plain("K", "Q", "k"), plain("K", "R", "k"), plain("K", "Q", "k", "p"),
                 plain("K", "R", "R", "k"), plain("K", "B", "N", "k"), plain("K", "P", "P", "k"),
                 plain("K", "Q", "k", "n"), plain("K", "R", "B", "k", "p"),
                 plain("K", "N", "N", "k", "p"), plain("K", "Q", "R", "k", "r", "p")]
    tries = 0
    while (mated < 28 or stalemated < 24) and tries < 60000:
        tries += 1
        pieces = rng.choice(materials)
        board = random_board(rng, CHESS, pieces, chess.WHITE)
        if board is None or board.is_game_over():
            continue
        if rng.random() < 0.5:
            board = board.mirror()  # same material for the other colour
        for move in legal_moves(board):
            board.push(move)
            want = (board.is_checkmate() and mated < 28) or (board.is_stalemate() and stalemated < 24)
            child = board.fen()
            board.pop()
            if want:
                if col.add(child, "terminal"):
                    note_terminal(chess.Board(child))
                    col.add(board.fen(), "pre-terminal")
                break

    # 3. Double checks.
    attackers = ["Q", "R", "B", "N", "R", "B", "N", "P"]
    found = tries = 0
    while found < 12 and tries < 40000:
        tries += 1
        pieces = plain("K", "k", *rng.sample(attackers, 4), *rng.sample(["p", "n", "b", "r"], 2))
        board = random_board(rng, CHESS, pieces, chess.BLACK)
        if board is None or len(board.checkers()) != 2:
            continue
        if rng.random() < 0.5:
            board = board.mirror()
        found += col.add(board.fen(), "double-check")

    # 4. Insufficient material and near misses (python's exact rule).
    insufficient = [
        plain("K", "k"), plain("K", "B", "k"), plain("K", "N", "k"), plain("K", "k", "b"),
        plain("K", "k", "n"),
        [("K", None), ("B", light), ("k", None), ("b", light)],
        [("K", None), ("B", dark), ("B", dark), ("k", None)],        # promoted same-colour bishops
        [("K", None), ("B", dark), ("k", None), ("b", dark), ("b", dark)],
        # Near misses (sufficient by python's rule):
        [("K", None), ("B", light), ("k", None), ("b", dark)],
        plain("K", "N", "k", "n"), plain("K", "N", "N", "k"), plain("K", "B", "k", "n"),
        plain("K", "N", "k", "q"), plain("K", "k", "p"), plain("K", "B", "N", "k"),
        [("K", None), ("B", light), ("P", None), ("k", None), ("b", light)],
    ]
    for pieces in insufficient:
        for _ in range(200):
            board = random_board(rng, CHESS, pieces, rng.choice([chess.WHITE, chess.BLACK]))
            if board is not None and col.add(board.fen(), "material"):
                break

    # 5. Castling with rights but a path square attacked (or in check).
    found = tries = 0
    while found < 14 and tries < 20000:
        tries += 1
        base = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        extras = rng.sample(["q", "r", "b", "n", "p", "b", "n", "P", "N"], rng.randint(1, 3))
        for symbol in extras:
            piece = chess.Piece.from_symbol(symbol)
            free = [sq for sq in chess.SQUARES if base.piece_at(sq) is None
                    and (piece.piece_type != chess.PAWN or 1 <= chess.square_rank(sq) <= 6)]
            base.set_piece_at(rng.choice(free), piece)
        if not base.is_valid():
            continue
        interesting = False
        for castle, path in ((chess.Move.from_uci("e1g1"), [chess.F1, chess.G1]),
                             (chess.Move.from_uci("e1c1"), [chess.B1, chess.C1, chess.D1])):
            empty = all(base.piece_at(sq) is None for sq in path)
            if empty and not base.is_legal(castle):
                interesting = True  # blocked only by attack / check
            if castle.to_square == chess.C1 and empty and base.is_legal(castle) \
                    and base.is_attacked_by(chess.BLACK, chess.B1):
                interesting = True  # b1 attacked does not stop O-O-O
        if interesting:
            board = base.mirror() if rng.random() < 0.4 else base
            found += col.add(board.fen(), "castling")

    # 6. Promotions (with captures on the back rank), both colours.
    found = tries = 0
    while found < 10 and tries < 5000:
        tries += 1
        pieces = [("K", None), ("k", None), ("P", rank_is(6)), ("P", rank_is(6)),
                  ("r", rank_is(7)), ("n", rank_is(7))]
        board = random_board(rng, CHESS, pieces, chess.WHITE)
        if board is None or not any(m.promotion for m in board.legal_moves):
            continue
        if rng.random() < 0.5:
            board = board.mirror()
        found += col.add(board.fen(), "promotion")

    # 7. Top up with more playout samples if needed.
    while len(col) < target:
        fens = playout(CHESS, rng.choice([CHESS_START] + TRICKY_CHESS), rng, 200)
        col.add(fens[rng.randrange(1, len(fens))], "playout")
    return col


# ---------------------------------------------------------------------------
# Racing Kings position selection
# ---------------------------------------------------------------------------

RK_PIECES_WHITE = ["Q", "R", "R", "B", "B", "N", "N"]
RK_PIECES_BLACK = ["q", "r", "r", "b", "b", "n", "n"]


def rk_random(rng: random.Random, white_king: Callable[[int], bool],
              black_king: Callable[[int], bool], turn: chess.Color,
              n_white: int, n_black: int) -> Optional[chess.Board]:
    pieces = [("K", white_king), ("k", black_king)]
    pieces += plain(*rng.sample(RK_PIECES_WHITE, n_white))
    pieces += plain(*rng.sample(RK_PIECES_BLACK, n_black))
    return random_board(rng, RK, pieces, turn)


def collect_rk_positions(rng: random.Random, target: int,
                         extra: Iterable[str]) -> Collector:
    col = Collector(RK)
    col.add(RK_START, "fixed")
    finished = 0

    def add_counting(fen: str, category: str) -> None:
        nonlocal finished
        if col.add(fen, category) and make_board(RK, fen).is_game_over():
            finished += 1

    # 1. Biased playouts: random plies plus the last two positions.
    for _ in range(45):
        fens = playout(RK, RK_START, rng, 200)
        for i in sorted(rng.sample(range(1, len(fens)), k=min(2, len(fens) - 1))):
            add_counting(fens[i], "playout")
        add_counting(fens[-1], "playout-end")
        add_counting(fens[-2], "playout-pre-end")

    # 2. White king home, Black to move: Black can / cannot still reach rank 8
    #    (Black's king on rank 7 so the question is not trivial).
    can = cannot = tries = 0
    while (can < 16 or cannot < 16) and tries < 40000:
        tries += 1
        board = rk_random(rng, rank_is(7), rank_is(6), chess.BLACK,
                          rng.randint(0, 4), rng.randint(0, 4))
        if board is None:
            continue
        reaches = board.outcome() is None
        if reaches and can < 16:
            can += col.add(board.fen(), "rk-black-can-reach")
        elif not reaches and cannot < 16:
            if col.add(board.fen(), "rk-black-cannot-reach"):
                cannot += 1
                finished += 1

    # Variants where Black reaches rank 8 only by capturing a white piece.
    found = tries = 0
    while found < 6 and tries < 40000:
        tries += 1
        board = rk_random(rng, rank_is(7), rank_is(6), chess.BLACK,
                          rng.randint(1, 4), rng.randint(0, 3))
        if board is None or board.outcome() is not None:
            continue
        bk = board.king(chess.BLACK)
        home = [sq for sq in chess.SquareSet(chess.BB_KING_ATTACKS[bk] & chess.BB_RANK_8)]
        if all(board.color_at(sq) == chess.WHITE or board.is_attacked_by(chess.WHITE, sq)
               for sq in home) and any(board.color_at(sq) == chess.WHITE for sq in home):
            found += col.add(board.fen(), "rk-reach-by-capture")

    # 3. Decided races with White to move: both kings home (draw), only
    #    Black home (Black won), only White home (Black failed to follow).
    for wk, bk, quota, cat in ((rank_is(7), rank_is(7), 10, "rk-both-home"),
                               (rank_is(0, 1, 2, 3, 4, 5, 6), rank_is(7), 6, "rk-black-home"),
                               (rank_is(7), rank_is(0, 1, 2, 3, 4, 5, 6), 6, "rk-white-home")):
        found = tries = 0
        while found < quota and tries < 20000:
            tries += 1
            board = rk_random(rng, wk, bk, chess.WHITE, rng.randint(0, 4), rng.randint(0, 4))
            if board is not None and col.add(board.fen(), cat):
                found += 1
                finished += 1

    # 4. Stalemates: side to move has no legal move although the race is
    #    open (every king step attacked, every other move gives check).
    stalemates = tries = 0
    low = rank_is(0, 1, 2, 3, 4, 5, 6)
    while stalemates < 12 and tries < 150000:
        tries += 1
        turn = rng.choice([chess.WHITE, chess.BLACK])
        corner = lambda sq: chess.square_file(sq) in (0, 7) and chess.square_rank(sq) <= 6
        n_mine, n_theirs = rng.randint(0, 2), rng.randint(2, 5)
        if turn == chess.WHITE:
            board = rk_random(rng, corner, low, turn, n_mine, n_theirs)
        else:
            board = rk_random(rng, low, corner, turn, n_theirs, n_mine)
        if board is None or board.is_variant_end() or any(board.generate_legal_moves()):
            continue
        if col.add(board.fen(), "rk-stalemate"):
            stalemates += 1
            finished += 1

    # 5. A few positions taken from the long games (high halfmove clocks).
    for fen in list(extra)[:6]:
        col.add(fen, "from-games")

    # 6. Make sure there are enough finished races, then top up.
    while finished < 40:
        fens = playout(RK, RK_START, rng, 200)
        add_counting(fens[-1], "playout-end")
    while len(col) < target:
        fens = playout(RK, RK_START, rng, 200)
        add_counting(fens[rng.randrange(1, len(fens))], "playout")
    return col


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------

Policy = Callable[[chess.Board], chess.Move]


def ply_record(board: chess.Board, move: chess.Move) -> dict:
    """Push ``move`` and report the facts of the resulting position."""
    san = board.san(move)
    board.push(move)
    return {
        "uci": move.uci(),
        "san": san,
        "fen": board.fen(),
        "threefold_now": board.is_repetition(3),
        "fifty_now": board.halfmove_clock >= 100,
        "fivefold": board.is_fivefold_repetition(),
        "seventyfive": board.is_seventyfive_moves(),
        "outcome": outcome_json(board),
    }


class Game:
    """A game under construction; stops at the first decided ply."""

    def __init__(self, variant: str, start_fen: str) -> None:
        self.variant = variant
        self.board = make_board(variant, start_fen)
        assert self.board.is_valid(), start_fen
        self.start_fen = self.board.fen()
        self.plies: List[dict] = []

    @property
    def over(self) -> bool:
        return (bool(self.plies) and self.plies[-1]["outcome"] is not None) \
            or len(self.plies) >= MAX_GAME_PLIES or not any(self.board.legal_moves)

    def push(self, move: chess.Move) -> bool:
        """Play ``move`` if the game is still running; False once over."""
        if self.over:
            return False
        assert self.board.is_legal(move), (self.board.fen(), move)
        self.plies.append(ply_record(self.board, move))
        return True

    def push_uci(self, ucis: Iterable[str]) -> None:
        for uci in ucis:
            if not self.push(chess.Move.from_uci(uci)):
                break

    def run(self, policy: Policy, max_plies: int = MAX_GAME_PLIES) -> "Game":
        while len(self.plies) < max_plies and not self.over:
            self.push(policy(self.board))
        return self

    def to_json(self) -> dict:
        return {"variant": self.variant, "start_fen": self.start_fen, "plies": self.plies}


def is_quiet_piece_move(board: chess.Board, move: chess.Move) -> bool:
    return not board.is_zeroing(move) and not board.is_castling(move)


def find_cycle(board: chess.Board, rng: random.Random) -> Optional[List[chess.Move]]:
    """A 4-ply reversible cycle (a, b, a^-1, b^-1) of quiet piece moves."""
    mine = [m for m in legal_moves(board) if is_quiet_piece_move(board, m)]
    rng.shuffle(mine)
    for a in mine[:12]:
        board.push(a)
        theirs = [m for m in legal_moves(board) if is_quiet_piece_move(board, m)]
        rng.shuffle(theirs)
        for b in theirs[:12]:
            board.push(b)
            a_back = chess.Move(a.to_square, a.from_square)
            ok = board.is_legal(a_back)
            if ok:
                board.push(a_back)
                b_back = chess.Move(b.to_square, b.from_square)
                ok = board.is_legal(b_back)
                board.pop()
            board.pop()
            if ok:
                board.pop()
                return [a, b, a_back, chess.Move(b.to_square, b.from_square)]
        board.pop()
    return None


def cycle_policy(cycle: List[chess.Move]) -> Policy:
    state = {"i": 0}

    def policy(board: chess.Board) -> chess.Move:
        move = cycle[state["i"] % len(cycle)]
        state["i"] += 1
        return move
    return policy


def biased_policy(rng: random.Random, variant: str) -> Policy:
    return lambda board: biased_move(board, rng, variant)


def wander_policy(rng: random.Random, variant: str) -> Policy:
    """Quiet, non-pawn moves that avoid repeating positions and avoid
    ending the game, so the halfmove clock climbs to 100 and 150.  In Racing
    Kings the kings are kept on ranks 1-5 so that the race never ends."""
    seen: Counter = Counter()

    def policy(board: chess.Board) -> chess.Move:
        seen[board._transposition_key()] += 1
        candidates = []
        for move in legal_moves(board):
            if board.is_zeroing(move):
                continue
            if variant == RK and board.piece_type_at(move.from_square) == chess.KING \
                    and chess.square_rank(move.to_square) > 4:
                continue
            board.push(move)
            ends = board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material()
            key = board._transposition_key()
            board.pop()
            if not ends:
                candidates.append((seen[key], rng.random(), move))
        if not candidates:
            return rng.choice(legal_moves(board))
        candidates.sort(key=lambda c: (c[0], c[1]))
        return candidates[0][2]
    return policy


def repeat_seeking_policy(rng: random.Random, piece_types: Sequence[int]) -> Policy:
    """Random quiet moves of the given piece types, strongly preferring
    positions already seen: produces irregular (non-cyclic) repetitions."""
    seen: Counter = Counter()

    def policy(board: chess.Board) -> chess.Move:
        seen[board._transposition_key()] += 1
        moves = [m for m in legal_moves(board)
                 if is_quiet_piece_move(board, m) and board.piece_type_at(m.from_square) in piece_types]
        if not moves:
            moves = legal_moves(board)
        weights = []
        for move in moves:
            board.push(move)
            weights.append((1 + seen[board._transposition_key()]) ** 6)
            board.pop()
        return weighted_choice(rng, moves, weights)
    return policy


def generate_games(rng: random.Random) -> Tuple[List[Game], List[str]]:
    games: List[Game] = []
    long_fens: List[str] = []  # high-halfmove RK positions for the positions file

    # 1. Ordinary biased random games, ending in mate / race / draws.
    for start in [CHESS_START] * 24 + TRICKY_CHESS * 3:
        games.append(Game(CHESS, start).run(biased_policy(rng, CHESS)))
    for _ in range(36):
        games.append(Game(RK, RK_START).run(biased_policy(rng, RK)))

    # 2. Cyclic shuffles to threefold and fivefold, from the start and from
    #    positions reached by short playouts.
    def cycle_game(variant: str, start: str) -> Optional[Game]:
        board = make_board(variant, start)
        cycle = find_cycle(board, rng)
        if cycle is None:
            return None
        return Game(variant, start).run(cycle_policy(cycle))

    for variant, start_fen, n in ((CHESS, CHESS_START, 14), (RK, RK_START, 10)):
        made = 0
        while made < n:
            start = start_fen if made == 0 else playout(variant, start_fen, rng, rng.randint(4, 30))[-1]
            if make_board(variant, start).is_game_over():
                continue
            game = cycle_game(variant, start)
            if game is not None:
                games.append(game)
                made += 1

    # Two interleaved cycles: repetitions that are not consecutive.
    for variant, start_fen in ((CHESS, CHESS_START), (CHESS, TRICKY_CHESS[0]), (RK, RK_START)):
        board = make_board(variant, start_fen)
        c1 = find_cycle(board, rng)
        c2 = find_cycle(board, rng)
        if c1 and c2:
            game = Game(variant, start_fen)
            for rounds in range(40):
                if game.over:
                    break
                game.push_uci(m.uci() for m in (c1 if rounds % 3 else c2))
            games.append(game)

    # 3. Repetition-seeking random walks (irregular repetition patterns).
    for _ in range(8):
        games.append(Game(CHESS, CHESS_START).run(
            repeat_seeking_policy(rng, [chess.KNIGHT, chess.KING, chess.ROOK])))
    for _ in range(6):
        games.append(Game(RK, RK_START).run(
            repeat_seeking_policy(rng, [chess.KNIGHT])))

    # 4. Long quiet wandering games: fifty (halfmove 100) and seventy-five (150).
    for start in WANDER_CHESS_STARTS:
        games.append(Game(CHESS, start).run(wander_policy(rng, CHESS)))
    for start in WANDER_RK_STARTS:
        game = Game(RK, start).run(wander_policy(rng, RK))
        games.append(game)
        for ply in game.plies:
            if ply["fen"].split()[4] in ("100", "150"):
                long_fens.append(ply["fen"])

    # 5. Halfmove clock starting near 100 (and a pawn move resetting it).
    for fen in ["4k3/8/8/8/8/8/8/R3K3 w - - 95 60",
                "8/8/3k4/8/8/3K4/8/2Q5 b - - 97 80",
                "4k3/p7/8/8/8/8/4P3/4K2R w - - 98 70",
                "8/2k5/8/8/8/5B2/8/1N2K3 w - - 145 120"]:
        games.append(Game(CHESS, fen).run(wander_policy(rng, CHESS), 12))
    game = Game(CHESS, "4k3/p7/8/8/8/8/4P3/4K2R w - - 98 70")
    game.push_uci(["h1h2", "e8d8", "e2e4", "d8e8"])  # pawn move at clock 99 resets
    games.append(game)
    for fen in ["8/8/8/8/8/8/kr4RK/8 w - - 96 50",
                "8/8/8/8/8/8/k1n3NK/8 b - - 146 90"]:
        games.append(Game(RK, fen).run(wander_policy(rng, RK), 12))

    # Mate / stalemate delivered exactly as the clock reaches 100 or 150:
    # mate and stalemate take precedence over the seventy-five-move rule.
    for fen, ucis in [("k7/8/1K6/8/8/8/8/7R w - - 149 100", ["h1h8"]),   # mate at 150
                      ("k7/8/1K6/8/8/8/8/7R w - - 99 100", ["h1h8"]),    # mate at 100
                      ("k7/8/8/1Q6/8/8/8/K7 w - - 149 100", ["b5b6"]),   # stalemate at 150
                      ("k7/8/8/1Q6/8/8/8/K7 w - - 148 100", ["a1b1", "a8a7"]),  # 75 moves
                      ("k7/8/2K5/8/8/8/8/7R w - - 149 100", ["h1h2"])]:  # plain 75 moves
        game = Game(CHESS, fen)
        game.push_uci(ucis)
        games.append(game)
    # Racing Kings: the race is decided exactly as the clock reaches 150.
    for fen, ucis in [("8/6K1/8/8/8/k7/8/8 w - - 149 100", ["g7g8"]),
                      ("8/6K1/8/8/8/8/8/k7 w - - 148 100", ["g7g6", "a1a2"])]:
        game = Game(RK, fen)
        game.push_uci(ucis)
        games.append(game)

    # 6. Repetition where the first occurrence had a legal e.p. capture
    #    (so it does not count), and where the e.p. capture was illegal (so
    #    it does count).
    shuffle = ["g8f6", "g1f3", "f6g8", "f3g1"] * 6
    game = Game(CHESS, CHESS_START)
    game.push_uci(["g1f3", "d7d5", "f3g1", "d5d4", "e2e4"] + shuffle)  # ...d4xe3 e.p. legal
    games.append(game)
    game = Game(CHESS, "1n6/8/8/8/k4p1R/8/4P3/4K1N1 w - - 0 1")
    game.push_uci(["e2e4"] + ["b8c6", "g1f3", "c6b8", "f3g1"] * 6)   # fxe3 e.p. illegal (pin)
    games.append(game)
    game = Game(CHESS, "1n6/8/8/8/k4p2/8/4P3/4K1N1 w - - 0 1")
    game.push_uci(["e2e4"] + ["b8c6", "g1f3", "c6b8", "f3g1"] * 6)   # fxe3 e.p. legal
    games.append(game)
    game = Game(CHESS, "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2")
    game.push_uci(["c2c4"] + ["b8c6", "b1c3", "c6b8", "c3b1"] * 6)   # dxc3 e.p. legal
    games.append(game)

    # 7. Castling rights changing while the placement repeats.
    game = Game(CHESS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    game.push_uci(["a1b1", "a8b8", "b1a1", "b8a8"] * 6)  # queen-side rights gone after ply 2
    games.append(game)
    game = Game(CHESS, "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1")
    game.push_uci(["g1f3", "h8g8", "f3g1", "g8h8"]          # start position not repeated
                  + ["b1c3", "e8d8", "c3b1", "d8e8"] * 6)
    games.append(game)
    game = Game(CHESS, "rn2k1nr/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1")
    game.push_uci(["b1c3", "b8c6", "c3b1", "c6b8"] * 2      # threefold with rights intact
                  + ["e1f1", "e8f8", "f1e1", "f8e8"] * 6)     # then kings lose all rights
    games.append(game)

    return games, long_fens


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

def dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=True)


def write_positions(path: Path, records: List[dict]) -> None:
    """A JSON array with one record per line."""
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write("[\n")
        f.write(",\n".join(dumps(r) for r in records))
        f.write("\n]\n")


def write_games(path: Path, games: List[dict]) -> None:
    """A JSON array of games; each ply on its own line for readable diffs."""
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write("[\n")
        chunks = []
        for g in games:
            head = '{"variant":%s,"start_fen":%s,"plies":[' % (dumps(g["variant"]), dumps(g["start_fen"]))
            body = ",\n".join(dumps(p) for p in g["plies"])
            chunks.append(head + "\n" + body + "\n]}")
        f.write(",\n".join(chunks))
        f.write("\n]\n")


def summarize_positions(name: str, records: List[dict], col: Collector) -> None:
    terms = Counter(r["outcome"]["termination"] if r["outcome"] else "none" for r in records)
    finished = sum(1 for r in records if not r["moves"])
    print(f"{name}: {len(records)} positions; {finished} with 0 legal moves; "
          f"in check {sum(r['in_check'] for r in records)}; "
          f"perft nodes total {sum(sum(r['perft']) for r in records)}; "
          f"max depth {max(len(r['perft']) for r in records)}")
    print(f"  outcomes: {dict(sorted(terms.items()))}")
    print(f"  categories: {dict(sorted(Counter(col.fens.values()).items()))}")


def summarize_games(games: List[dict]) -> None:
    for variant in (CHESS, RK):
        gs = [g for g in games if g["variant"] == variant]
        plies = [p for g in gs for p in g["plies"]]
        ends = Counter(g["plies"][-1]["outcome"]["termination"] if g["plies"] and g["plies"][-1]["outcome"]
                       else "unfinished" for g in gs)

        def games_with(key: str) -> int:
            return sum(1 for g in gs if any(p[key] for p in g["plies"]))
        print(f"games[{variant}]: {len(gs)} games, {len(plies)} plies; "
              f"games with threefold_now {games_with('threefold_now')}, fivefold {games_with('fivefold')}, "
              f"fifty_now {games_with('fifty_now')}, seventyfive {games_with('seventyfive')}")
        print(f"  endings: {dict(sorted(ends.items()))}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    repo = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", type=Path, default=repo / "crates/rules/tests/data",
                        help="directory for the JSON files (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=20240601, help="random seed (default: %(default)s)")
    parser.add_argument("--perft-cap", type=int, default=20000,
                        help="stop adding perft depths beyond about this many nodes (default: %(default)s)")
    parser.add_argument("--positions", type=int, default=300,
                        help="minimum positions per chess / racing kings file (default: %(default)s)")
    parser.add_argument("--variant-positions", type=int, default=150,
                        help="minimum positions per other variant's file (default: %(default)s)")
    args = parser.parse_args(argv)

    t0 = time.process_time()
    print(f"python-chess {chess.__version__}, seed {args.seed}", file=sys.stderr)
    args.out_dir.mkdir(parents=True, exist_ok=True)

    # Independent random streams so that changing one part does not shift the others.
    games, long_fens = generate_games(random.Random(f"{args.seed}-games"))
    game_json = [g.to_json() for g in games]
    write_games(args.out_dir / "reference-games.json", game_json)

    chess_col = collect_chess_positions(random.Random(f"{args.seed}-chess"), args.positions)
    # A few chess positions with a high halfmove clock (75-move outcome but moves remain).
    high_clock = [p["fen"] for g in games if g.variant == CHESS
                  for p in g.plies if p["fen"].split()[4] in ("100", "150")]
    for fen in high_clock[:8]:
        chess_col.add(fen, "from-games")
    chess_records = [position_record(CHESS, fen, args.perft_cap) for fen in chess_col.fens]
    write_positions(args.out_dir / "reference-chess.json", chess_records)

    rk_col = collect_rk_positions(random.Random(f"{args.seed}-rk"), args.positions, long_fens)
    rk_records = [position_record(RK, fen, args.perft_cap) for fen in rk_col.fens]
    write_positions(args.out_dir / "reference-racingkings.json", rk_records)

    summarize_positions("chess", chess_records, chess_col)
    summarize_positions("racingkings", rk_records, rk_col)
    summarize_games(game_json)

    # The other lichess variants, one file each, from their own random streams.
    from gen_variants import write_all
    write_all(args.out_dir, args.seed, args.perft_cap, args.variant_positions)
    print(f"cpu time {time.process_time() - t0:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
