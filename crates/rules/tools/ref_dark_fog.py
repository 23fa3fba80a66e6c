#!/usr/bin/env python3
"""An independent reference for what a Dark Chess player sees (test tooling only), written from
../shared/GAMES.md section 5 (BrainKing's visibility rule) on python-chess's move generator, with
none of chessd's code:

  1. the player's own pieces' squares;
  2. every square one of its pieces can move to under the king-capture rules (python-chess's
     pseudo-legal moves, king captures included; castling added here, since Dark Chess castles
     through attacked squares where python-chess's generator will not): for en passant the
     destination only;
  3. the square ahead of each of its pawns and that square's two neighbours on the same rank.

The player not to move sees by the moves it would have were it its turn (no en passant square).

  tools/ref_dark_fog.py < tests/data/wide-dark.moves > tests/data/wide-dark.fog

reads positions (a FEN first on each line, as the `.moves` files give them) and prints, for
each, `FEN<TAB>White's view<TAB>Black's view`: the board with every unseen square `?`, the side
to move, the viewer's own castling rights, and the en passant square when the viewer is to move
and has it. tests/wide.rs compares them with `WidePosition::fog_fen`.
"""
import sys

import chess


def castling_targets(board, color):
    """Squares the king of `color` lands on by castling: rights, and empty squares between."""
    out = []
    king = board.king(color)
    if king is None:
        return out
    for rook in chess.scan_forward(board.castling_rights & board.occupied_co[color]):
        between = chess.between(king, rook)
        if board.occupied & between:
            continue
        rank = chess.square_rank(king)
        file = 6 if chess.square_file(rook) > chess.square_file(king) else 2
        out.append(chess.square(file, rank))
    return out


def visible(board, color):
    b = board.copy(stack=False)
    if b.turn != color:
        b.turn = color
        b.ep_square = None
    seen = set(chess.scan_forward(b.occupied_co[color]))
    # A side without its king has lost: the game is over and no piece has a move left (both
    # players then see the whole board, which is the server's business, not this rule's).
    over = b.king(chess.WHITE) is None or b.king(chess.BLACK) is None
    for m in [] if over else b.generate_pseudo_legal_moves():
        if b.is_castling(m):
            continue
        seen.add(m.to_square)
    if not over:
        seen.update(castling_targets(b, color))
    step = 8 if color == chess.WHITE else -8
    for p in chess.scan_forward(b.pawns & b.occupied_co[color]):
        ahead = p + step
        if not 0 <= ahead < 64:
            continue
        seen.add(ahead)
        f = chess.square_file(ahead)
        if f > 0:
            seen.add(ahead - 1)
        if f < 7:
            seen.add(ahead + 1)
    return seen


def fog(board, color):
    seen = visible(board, color)
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            sq = chess.square(file, rank)
            piece = board.piece_at(sq)
            if sq in seen and piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece.symbol() if sq in seen else "?"
        if empty:
            row += str(empty)
        rows.append(row)
    rights = board.castling_xfen()
    own = "".join(c for c in rights if c != "-" and (c.isupper() == (color == chess.WHITE)))
    ep = "-"
    if board.turn == color and board.ep_square is not None:
        ep = chess.square_name(board.ep_square)
    return "%s %s %s %s" % ("/".join(rows), "w" if board.turn else "b", own or "-", ep)


def main():
    for line in sys.stdin:
        fen = line.split("\t")[0].strip()
        if not fen:
            continue
        # chess960=False: standard castling squares; the FEN's rights are KQkq letters.
        board = chess.Board(fen)
        print("%s\t%s\t%s" % (fen, fog(board, chess.WHITE), fog(board, chess.BLACK)))


if __name__ == "__main__":
    main()
