"""Reference data for the lichess variants beyond standard chess and Racing Kings.

``gen_reference.py`` calls :func:`write_all`, which writes one file per variant to the output
directory, ``reference-<variant>.json`` for ``chess960``, ``threecheck``, ``kingofthehill``,
``antichess``, ``atomic``, ``horde`` and ``crazyhouse``::

    {"variant": ..., "positions": [...], "games": [...]}

A position record is computed on a board built *fresh* from its FEN (Chess960 boards with
``chess960=True``)::

    {"fen": ..., "perft": [d1, d2, ...], "in_check": bool,
     "insufficient": [white, black],          # has_insufficient_material per side
     "moves": [{"uci": ..., "san": ..., "fen": <FEN after>}, ...],
     "outcome": null | {"result": ..., "termination": <python-chess name>}}

A game records, after each ply, the facts python-chess computes *with full history*::

    {"start_fen": ..., "plies": [{"uci", "san", "fen", "threefold_now", "fifty_moves",
                                  "fivefold", "seventyfive", "outcome"}, ...]}

with ``threefold_now = board.is_repetition(3)``, ``fifty_moves = board.is_fifty_moves()``
(false in crazyhouse, which has no move-count rule), ``fivefold`` and ``seventyfive`` as
python-chess says and ``outcome = board.outcome(claim_draw=False)``.

SAN is written as chessd writes it (RULES.md): python-chess's SAN without its suffix, a pawn
drop as ``P@e4`` (python-chess writes ``@e4``), then ``+`` if python-chess says the move gives
check and ``#`` if the opponent then has no legal move. python-chess also puts ``#`` after a
move that ends the game by a variant rule without check (the king reaching the hill, an
exploded king, the last piece lost); chessd keeps ``#`` for checks, as the PGN standard means.

FENs are python-chess's but for one atomic case: python-chess writes the en passant square
when the capture leaves no king of the capturer attacked, which includes a capture that
explodes the capturer's own king; chessd (and this data) writes it only when an en passant
capture is among the legal moves.

Colour mirrors (``board.mirror()``, which swaps pockets and check counters too) are added for
every variant but Horde, whose sides differ. Everything is driven by seeded
``random.Random`` streams, one per variant, so the files are byte-identical across runs and
independent of the chess and Racing Kings data.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import chess
import chess.variant

from gen_reference import (chess_weight, dumps, legal_moves, outcome_json, perft_series,
                           weighted_choice)

BOARDS: Dict[str, type] = {
    "chess960": chess.Board,
    "threecheck": chess.variant.ThreeCheckBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "antichess": chess.variant.AntichessBoard,
    "atomic": chess.variant.AtomicBoard,
    "horde": chess.variant.HordeBoard,
    "crazyhouse": chess.variant.CrazyhouseBoard,
}
MIRRORED = {"chess960", "threecheck", "kingofthehill", "antichess", "atomic", "crazyhouse"}
MAX_PLIES = 300


def board_of(variant: str, fen: Optional[str] = "start") -> chess.Board:
    """A board of the variant's class (its start by default); ``fen=None`` gives an empty
    board."""
    cls = BOARDS[variant]
    chess960 = variant == "chess960"
    if fen == "start":
        return cls(chess960=chess960)
    return cls(fen, chess960=chess960)


def start_fens(variant: str, rng: random.Random, n: int) -> List[str]:
    """Start positions for playouts: Chess960's numbered starts, else the variant's own."""
    if variant == "chess960":
        numbers = [518, 0, 959] + [rng.randrange(960) for _ in range(n - 3)]
        return [_start960(k) for k in numbers]
    return [board_of(variant).fen()] * n


def _start960(number: int) -> str:
    board = chess.Board(chess960=True)
    board.set_chess960_pos(number)
    return board.fen()


# ---------------------------------------------------------------------------
# SAN as chessd writes it
# ---------------------------------------------------------------------------

def fen_of(board: chess.Board) -> str:
    """``board.fen()``, with the en passant square only if an en passant capture is legal
    (python-chess's atomic boards also write it for one that explodes the capturer's king)."""
    fen = board.fen()
    if isinstance(board, chess.variant.AtomicBoard) and board.ep_square is not None \
            and not any(board.is_en_passant(m) for m in board.legal_moves):
        fields = fen.split(" ")
        fields[3] = "-"
        fen = " ".join(fields)
    return fen


def chessd_san(board: chess.Board, move: chess.Move) -> str:
    san = board.san(move).rstrip("+#")
    if san.startswith("@"):
        san = "P" + san
    board.push(move)
    if board.is_check():
        san += "+" if any(board.generate_legal_moves()) else "#"
    board.pop()
    return san


def position_record(variant: str, fen: str, cap: int) -> dict:
    board = board_of(variant, fen)
    assert fen_of(board) == fen, (variant, fen, board.fen())
    moves = []
    for move in legal_moves(board):
        san = chessd_san(board, move)
        board.push(move)
        after = fen_of(board)
        board.pop()
        moves.append({"uci": move.uci(), "san": san, "fen": after})
    return {
        "fen": fen,
        "perft": perft_series(board, cap),
        "in_check": board.is_check(),
        "insufficient": [board.has_insufficient_material(chess.WHITE),
                         board.has_insufficient_material(chess.BLACK)],
        "moves": moves,
        "outcome": outcome_json(board),
    }


# ---------------------------------------------------------------------------
# Biased move choice: favour what each variant's rules are about
# ---------------------------------------------------------------------------

def move_weight(variant: str, board: chess.Board, move: chess.Move) -> float:
    """The chess data's weights (captures, en passant, castling, promotions, checks, mates),
    times what the variant is about."""
    w = chess_weight(board, move)
    if move.drop:
        w *= 0.5 if move.drop == chess.PAWN else 0.8
    if variant == "threecheck" and board.gives_check(move):
        w *= 2
    if variant == "kingofthehill" and board.piece_type_at(move.from_square) == chess.KING:
        centre = 3.5 - max(abs(chess.square_file(move.to_square) - 3.5),
                           abs(chess.square_rank(move.to_square) - 3.5))
        w *= 1 + 2 * centre
    if variant == "horde" and board.turn == chess.WHITE and board.piece_type_at(move.from_square) == chess.PAWN:
        w *= 2
    return w


def biased_move(variant: str, board: chess.Board, rng: random.Random) -> chess.Move:
    moves = legal_moves(board)
    return weighted_choice(rng, moves, [move_weight(variant, board, m) for m in moves])


def playout(variant: str, start: str, rng: random.Random, max_plies: int = MAX_PLIES) -> List[str]:
    board = board_of(variant, start)
    fens = [board.fen()]
    while len(fens) <= max_plies and board.outcome(claim_draw=False) is None:
        board.push(biased_move(variant, board, rng))
        fens.append(board.fen())
    return fens


# ---------------------------------------------------------------------------
# Targeted positions
# ---------------------------------------------------------------------------

def random_sparse(variant: str, rng: random.Random, symbols: Sequence[str],
                  turn: chess.Color, where: Optional[Callable[[str, int], bool]] = None
                  ) -> Optional[chess.Board]:
    """``symbols`` placed at random (pawns off the back ranks); None unless python-chess
    calls the result valid."""
    board = board_of(variant, None)
    board.turn = turn
    for symbol in symbols:
        piece = chess.Piece.from_symbol(symbol)
        free = [sq for sq in chess.SQUARES if board.piece_at(sq) is None
                and (where is None or where(symbol, sq))]
        if piece.piece_type == chess.PAWN:
            free = [sq for sq in free if 1 <= chess.square_rank(sq) <= 6]
        if not free:
            return None
        board.set_piece_at(rng.choice(free), piece)
    return board if board.is_valid() else None


def centre_distance(sq: int) -> float:
    return max(abs(chess.square_file(sq) - 3.5), abs(chess.square_rank(sq) - 3.5))


def targeted(variant: str, rng: random.Random) -> List[Tuple[str, str]]:
    """(category, FEN) pairs aimed at the variant's own rules."""
    out: List[Tuple[str, str]] = []

    def keep(board: Optional[chess.Board], category: str) -> bool:
        if board is None:
            return False
        out.append((category, board.fen()))
        return True

    def search(make: Callable[[], Optional[chess.Board]], want: int, category: str,
               tries: int = 4000) -> None:
        found = 0
        for _ in range(tries):
            if found >= want:
                break
            found += keep(make(), category)

    minors = ["Q", "R", "B", "N", "P", "P"]

    def en_passant() -> Optional[chess.Board]:
        """A double step just played next to an enemy pawn (Horde: by White from rank 2)."""
        mover = chess.WHITE if variant == "horde" else chess.BLACK
        board = random_sparse(variant, rng, ["K", "k"] + rng.sample(minors + ["q", "r", "b", "n"], 3)
                              if variant != "horde" else ["k", "q", "P", "P"], mover)
        if board is None:
            return None
        board.remove_piece_at(board.king(chess.WHITE)) if variant == "horde" and board.king(chess.WHITE) else None
        file = rng.randrange(8)
        side = file + rng.choice([-1, 1])
        if not 0 <= side < 8:
            return None
        start, target = (1, 3) if mover == chess.WHITE else (6, 4)
        catcher = chess.square(side, target)
        for sq in (chess.square(file, start), chess.square(file, (start + target) // 2),
                   chess.square(file, target), catcher):
            board.remove_piece_at(sq)
        board.set_piece_at(chess.square(file, start), chess.Piece(chess.PAWN, mover))
        board.set_piece_at(catcher, chess.Piece(chess.PAWN, not mover))
        double = chess.Move(chess.square(file, start), chess.square(file, target))
        if not board.is_valid() or not board.is_legal(double):
            return None
        board.push(double)
        board = board_of(variant, board.fen())
        return board if board.ep_square is not None else None
    search(en_passant, 10, "en-passant", 20000)

    def open_up(board: chess.Board, clear: float, attackers: int, ranks: range) -> None:
        """Thin out the pawn ranks, drop up to `attackers` pieces on `ranks`, pick a side."""
        for sq in list(chess.SquareSet(chess.BB_RANK_2 | chess.BB_RANK_7)):
            if rng.random() < clear:
                board.remove_piece_at(sq)
        for symbol in rng.sample(["q", "r", "b", "n", "Q", "R", "B", "N"], rng.randint(0, attackers)):
            free = [sq for sq in chess.SQUARES if board.piece_at(sq) is None
                    and chess.square_rank(sq) in ranks]
            board.set_piece_at(rng.choice(free), chess.Piece.from_symbol(symbol))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])

    def castling_standard() -> Optional[chess.Board]:
        """Both sides' rights with the squares between empty; attackers here and there."""
        board = board_of(variant, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
        open_up(board, 0.6, 3, range(2, 6))
        return board if board.is_valid() and board.outcome() is None else None
    if variant in ("threecheck", "kingofthehill", "atomic", "crazyhouse"):
        search(castling_standard, 12, "castling")

    if variant == "chess960":
        # Castling with the king and rooks anywhere: a numbered start with the pieces between
        # king and rooks taken off, some enemy pieces dropped in to attack the path.
        def castling() -> Optional[chess.Board]:
            board = chess.Board(_start960(rng.randrange(960)), chess960=True)
            for sq in list(chess.SquareSet(chess.BB_RANK_1 | chess.BB_RANK_8)):
                piece = board.piece_at(sq)
                if piece and piece.piece_type not in (chess.KING, chess.ROOK) and rng.random() < 0.8:
                    board.remove_piece_at(sq)
            open_up(board, 0.5, 3, range(1, 7))
            if not board.is_valid() or not any(board.is_castling(m) for m in board.legal_moves) \
                    and rng.random() < 0.7:
                return None
            return board
        search(castling, 40, "castling")

        # An inner rook with the right (X-FEN writes its file letter).
        def inner_rook() -> Optional[chess.Board]:
            board = castling()
            if board is None:
                return None
            king = board.king(chess.WHITE)
            rights = board.castling_rights & chess.BB_RANK_1
            for rook in chess.SquareSet(rights):
                outer = range(0, chess.square_file(rook)) if rook < king \
                    else range(chess.square_file(rook) + 1, 8)
                empty = [f for f in outer if board.piece_at(chess.square(f, 0)) is None]
                if empty:
                    board.set_piece_at(chess.square(rng.choice(empty), 0),
                                       chess.Piece(chess.ROOK, chess.WHITE))
                    return board if board.is_valid() else None
            return None
        search(inner_rook, 8, "inner-rook")
    elif variant == "threecheck":
        def counters() -> Optional[chess.Board]:
            fens = playout(variant, board_of(variant).fen(), rng, rng.randint(4, 40))
            board = board_of(variant, rng.choice(fens))
            if board.outcome() is not None:
                return None
            board.remaining_checks[chess.WHITE] = rng.randint(1, 3)
            board.remaining_checks[chess.BLACK] = rng.randint(1, 3)
            return board
        search(counters, 30, "counters")

        def last_check() -> Optional[chess.Board]:
            """One check left each and a check to give: the next check wins."""
            board = random_sparse(variant, rng, ["K", "k"] + rng.sample(minors, 3) + ["p"],
                                  rng.choice([chess.WHITE, chess.BLACK]))
            if board is None:
                return None
            board.remaining_checks[chess.WHITE] = board.remaining_checks[chess.BLACK] = 1
            return board if any(board.gives_check(m) for m in board.legal_moves) else None
        search(last_check, 16, "last-check")
        search(lambda: random_sparse(variant, rng, ["K", "k", rng.choice(["N", "B", "n"])],
                                     chess.WHITE), 6, "material")
    elif variant == "kingofthehill":
        near = lambda symbol, sq: symbol.lower() != "k" or centre_distance(sq) <= 1.5
        search(lambda: random_sparse(variant, rng, ["K", "k"] + rng.sample(minors + ["q", "r", "n", "p"], 4),
                                     rng.choice([chess.WHITE, chess.BLACK]), near), 30, "near-hill")
        on = lambda symbol, sq: symbol != "K" or centre_distance(sq) < 1
        search(lambda: random_sparse(variant, rng, ["K", "k", "r", "N"], chess.BLACK, on), 6, "on-hill")
    elif variant == "antichess":
        pieces = ["K", "Q", "R", "B", "N", "P", "P", "k", "q", "r", "b", "n", "p", "p"]
        search(lambda: random_sparse(variant, rng, rng.sample(pieces, rng.randint(2, 6)),
                                     rng.choice([chess.WHITE, chess.BLACK])), 30, "endgame")
        seventh = lambda symbol, sq: symbol != "P" or chess.square_rank(sq) == 6
        search(lambda: random_sparse(variant, rng, ["P", "P", "k", "n"], chess.WHITE, seventh),
               8, "promotion")
        light = lambda symbol, sq: bool(chess.BB_SQUARES[sq] & chess.BB_LIGHT_SQUARES)
        dark = lambda symbol, sq: bool(chess.BB_SQUARES[sq] & chess.BB_DARK_SQUARES)
        search(lambda: random_sparse(variant, rng, ["B", "b"], chess.WHITE,
                                     lambda s, sq: light(s, sq) if s == "B" else dark(s, sq)),
               4, "bishops")
        search(lambda: random_sparse(variant, rng, ["B", "B", "b"], chess.BLACK,
                                     lambda s, sq: light(s, sq)), 3, "bishops")
        search(lambda: random_sparse(variant, rng, ["N", "n"], rng.choice([chess.WHITE, chess.BLACK])),
               6, "knights")

        def stalemated() -> Optional[chess.Board]:
            board = random_sparse(variant, rng, rng.sample(["P", "P", "N", "p", "p", "b"], 4),
                                  chess.WHITE)
            return board if board is not None and not any(board.legal_moves) else None
        search(stalemated, 6, "stalemate", 20000)
    elif variant == "atomic":
        def kings_touch() -> Optional[chess.Board]:
            board = random_sparse(variant, rng, ["K"] + rng.sample(minors + ["q", "r", "b", "n", "p"], 5),
                                  rng.choice([chess.WHITE, chess.BLACK]))
            if board is None:
                return None
            king = board.king(chess.WHITE)
            spots = [sq for sq in chess.SquareSet(chess.BB_KING_ATTACKS[king]) if board.piece_at(sq) is None]
            if not spots:
                return None
            board.set_piece_at(rng.choice(spots), chess.Piece(chess.KING, chess.BLACK))
            return board if board.is_valid() else None
        search(kings_touch, 24, "kings-touch")
        def check() -> Optional[chess.Board]:
            board = random_sparse(variant, rng, ["K", "k"] + rng.sample(minors + ["q", "r", "b", "n", "p", "p"], 6),
                                  rng.choice([chess.WHITE, chess.BLACK]))
            return board if board is not None and board.is_check() else None
        search(check, 20, "check", 20000)
        search(lambda: random_sparse(variant, rng, ["K", "k", rng.choice(["N", "B", "R"])], chess.WHITE),
               6, "material")
        search(lambda: random_sparse(variant, rng, ["K", "k", "B", "b"], chess.WHITE), 4, "material")
    elif variant == "horde":
        horde = lambda symbol, sq: symbol != "P" or chess.square_rank(sq) <= 3
        search(lambda: random_sparse(variant, rng, ["k", "q", "r", "n"] + ["P"] * rng.randint(3, 12),
                                     rng.choice([chess.WHITE, chess.BLACK]), horde), 24, "horde")
        first = lambda symbol, sq: symbol != "P" or chess.square_rank(sq) == 0
        for _ in range(6):
            board = board_of(variant, None)
            board.turn = chess.WHITE
            board.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
            for f in rng.sample(range(8), 3):
                board.set_piece_at(chess.square(f, 0), chess.Piece(chess.PAWN, chess.WHITE))
            board.set_piece_at(chess.square(rng.randrange(8), 3), chess.Piece(chess.PAWN, chess.BLACK))
            if board.is_valid():
                keep(board, "first-rank")
        for symbols in (["k", "Q"], ["k", "B"], ["k", "N", "N"], ["k", "R", "B"], ["k", "p", "p", "N"],
                        ["k", "P"], ["k", "r", "Q"], ["k", "B", "B"], ["k", "b", "p", "B"]):
            search(lambda: random_sparse(variant, rng, symbols, chess.BLACK), 1, "material")
    elif variant == "crazyhouse":
        def pockets() -> Optional[chess.Board]:
            fens = playout(variant, board_of(variant).fen(), rng, rng.randint(6, 60))
            board = board_of(variant, rng.choice(fens))
            return board if board.outcome() is None else None
        search(pockets, 30, "pockets")

        def promoted() -> Optional[chess.Board]:
            board = random_sparse(variant, rng, ["K", "k", "P", "p", "n"], chess.WHITE,
                                  lambda s, sq: s != "P" or chess.square_rank(sq) == 6)
            if board is None:
                return None
            promos = [m for m in legal_moves(board) if m.promotion]
            if not promos:
                return None
            board.push(rng.choice(promos))
            board = board_of(variant, board.fen())
            for _ in range(rng.randint(0, 3)):
                board.pockets[rng.choice([chess.WHITE, chess.BLACK])].add(rng.choice([1, 2, 3, 4, 5]))
            return board if board.is_valid() and board.outcome() is None else None
        search(promoted, 12, "promoted")
    return out


# ---------------------------------------------------------------------------
# Collecting positions and games
# ---------------------------------------------------------------------------

def collect_positions(variant: str, rng: random.Random, target: int) -> List[str]:
    fens: Dict[str, str] = {}

    def add(fen: str, category: str) -> None:
        board = board_of(variant, fen)
        if not board.is_valid():
            return
        # An antichess side that just moved cannot have lost its last piece (python-chess
        # calls such a position valid; chessd refuses it as unreachable).
        if variant == "antichess" and not board.occupied_co[not board.turn]:
            return
        fens.setdefault(fen_of(board), category)

    starts = start_fens(variant, rng, 30)
    for fen in starts[:6]:
        add(fen, "start")
    for start in starts:
        line = playout(variant, start, rng)
        for i in sorted(rng.sample(range(1, len(line)), k=min(2, len(line) - 1))):
            add(line[i], "playout")
        add(line[-1], "playout-end")
        add(line[-2], "playout-pre-end")
    for category, fen in targeted(variant, rng):
        add(fen, category)
    if variant in MIRRORED:
        for fen in list(fens)[: len(fens) // 4]:
            add(board_of(variant, fen).mirror().fen(), "mirror")
    while len(fens) < target:
        line = playout(variant, rng.choice(starts), rng)
        add(line[rng.randrange(1, len(line))], "playout")
    return list(fens)


def ply_record(board: chess.Board, move: chess.Move) -> dict:
    san = chessd_san(board, move)
    board.push(move)
    return {
        "uci": move.uci(),
        "san": san,
        "fen": fen_of(board),
        "threefold_now": board.is_repetition(3),
        "fifty_moves": board.is_fifty_moves(),
        "fivefold": board.is_fivefold_repetition(),
        "seventyfive": board.is_seventyfive_moves(),
        "outcome": outcome_json(board),
    }


def play_game(variant: str, start: str, choose: Callable[[chess.Board], chess.Move],
              max_plies: int = MAX_PLIES) -> dict:
    board = board_of(variant, start)
    plies: List[dict] = []
    while len(plies) < max_plies and board.outcome(claim_draw=False) is None:
        plies.append(ply_record(board, choose(board)))
    return {"start_fen": fen_of(board_of(variant, start)), "plies": plies}


def shuffle_policy(variant: str, rng: random.Random) -> Callable[[chess.Board], chess.Move]:
    """Quiet moves of pieces, preferring positions already seen: repetitions."""
    seen: Counter = Counter()

    def choose(board: chess.Board) -> chess.Move:
        seen[board._transposition_key()] += 1
        moves = [m for m in legal_moves(board) if not m.drop and not board.is_capture(m)
                 and not board.is_castling(m) and board.piece_type_at(m.from_square) != chess.PAWN]
        if not moves:
            return biased_move(variant, board, rng)
        weights = []
        for m in moves:
            board.push(m)
            weights.append((1 + seen[board._transposition_key()]) ** 6)
            board.pop()
        return weighted_choice(rng, moves, weights)
    return choose


def collect_games(variant: str, rng: random.Random, count: int) -> List[dict]:
    starts = start_fens(variant, rng, count)
    games = [play_game(variant, start, lambda b: biased_move(variant, b, rng)) for start in starts]
    # Repetitions: shuffle from a few plies into a game until fivefold.
    for start in starts[:4]:
        opening = playout(variant, start, rng, rng.randint(2, 10))
        fen = opening[-1]
        if board_of(variant, fen).outcome() is None:
            games.append(play_game(variant, fen, shuffle_policy(variant, rng), 120))
    return games


def write_variant(path: Path, variant: str, positions: List[dict], games: List[dict]) -> None:
    """One JSON object; each position and each ply on its own line for readable diffs."""
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write('{"variant":%s,"positions":[\n' % dumps(variant))
        f.write(",\n".join(dumps(p) for p in positions))
        f.write('\n],"games":[\n')
        chunks = []
        for g in games:
            body = ",\n".join(dumps(p) for p in g["plies"])
            chunks.append('{"start_fen":%s,"plies":[\n%s\n]}' % (dumps(g["start_fen"]), body))
        f.write(",\n".join(chunks))
        f.write("\n]}\n")


def summarize(variant: str, positions: List[dict], games: List[dict]) -> None:
    ends = Counter(p["outcome"]["termination"] if p["outcome"] else "none" for p in positions)
    game_ends = Counter(g["plies"][-1]["outcome"]["termination"]
                        if g["plies"] and g["plies"][-1]["outcome"] else "unfinished" for g in games)
    plies = sum(len(g["plies"]) for g in games)
    print(f"{variant}: {len(positions)} positions, outcomes {dict(sorted(ends.items()))}; "
          f"{len(games)} games, {plies} plies, endings {dict(sorted(game_ends.items()))}")


def write_all(out_dir: Path, seed: int, cap: int, target: int) -> None:
    for variant in BOARDS:
        fens = collect_positions(variant, random.Random(f"{seed}-{variant}-positions"), target)
        positions = [position_record(variant, fen, cap) for fen in fens]
        games = collect_games(variant, random.Random(f"{seed}-{variant}-games"), 16)
        write_variant(out_dir / f"reference-{variant}.json", variant, positions, games)
        summarize(variant, positions, games)
