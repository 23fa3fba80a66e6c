#!/usr/bin/env python3
"""A plain, independent reference for the 8x8 games no engine on this machine plays as
GAMES.md gives them (test tooling only): Maharajah Chess (Fairy-Stockfish 11.1 cannot load a
royal maharajah), Berolina and Legan (only newer Fairy-Stockfish builds have them). Written from GAMES.md alone, with none of chessd's code or ideas: a square
table, moves tried one by one, a move legal when its own royal piece is not attacked after it.
Slow, and meant to be obviously right rather than fast.

  tools/ref_8x8.py perft GAME DEPTH [--fen FEN]...  >> tests/data/wide-GAME.perft   (GAME:
      maharajah, berolina, legan)
  tools/ref_8x8.py moves GAME --seed N --games G [--bias] > tests/data/wide-GAME.moves

The output formats are tools/fsf_oracle.py's, so tests/wide.rs reads both alike.
"""
import random
import sys

START = {
    "maharajah": "rnbqkbnr/pppppppp/8/8/8/8/8/4M3 w kq - 0 1",
    "berolina": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "legan": "knbrp3/bqpp4/npp5/rp1p3P/p3P1PR/5PPN/4PPQB/3PRBNK w - - 0 1",
}

KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK = [(1, 0), (0, 1), (-1, 0), (0, -1)]
BISHOP = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
# Letter -> (leaps, slides). The maharajah moves as a queen or a knight.
MOVES = {
    "N": (KNIGHT, []),
    "B": ([], BISHOP),
    "R": ([], ROOK),
    "Q": ([], ROOK + BISHOP),
    "K": (KING, []),
    "M": (KNIGHT, ROOK + BISHOP),
}


class Game:
    """Maharajah's rules: White's royal piece is the maharajah `M`, Black's the king; black
    pawns never promote (one on rank 1 stays and cannot move); White promotes as in chess."""

    royal = {"w": "M", "b": "K"}
    promote = {"w": "QRBN", "b": ""}
    # White's pawn steps as (files, ranks); Black's are turned through 180 degrees.
    pawn_moves = [(0, 1)]
    pawn_captures = [(-1, 1), (1, 1)]
    double_step = True
    castling = True

    @staticmethod
    def zone(color, sq):
        return sq[1] == (7 if color == "w" else 0)


class Berolina(Game):
    """Chess with pawns that step diagonally forward (two along one diagonal from the second
    rank, both squares empty) and capture straight ahead; en passant onto the skipped square
    by the enemy pawn straight behind it, removing the pawn that stepped."""

    royal = {"w": "K", "b": "K"}
    promote = {"w": "QRBN", "b": "QRBN"}
    pawn_moves = [(-1, 1), (1, 1)]
    pawn_captures = [(0, 1)]


class Legan(Game):
    """White pawns step up-left and capture up or left (Black: down-right; down or right); no
    double step, en passant or castling; promotion on a5-a8, b8-d8 (Black: e1-h1, h2-h4)."""

    royal = {"w": "K", "b": "K"}
    promote = {"w": "QRBN", "b": "QRBN"}
    pawn_moves = [(-1, 1)]
    pawn_captures = [(0, 1), (-1, 0)]
    double_step = False
    castling = False
    ZONES = {"w": {(0, 4), (0, 5), (0, 6), (0, 7), (1, 7), (2, 7), (3, 7)},
             "b": {(4, 0), (5, 0), (6, 0), (7, 0), (7, 1), (7, 2), (7, 3)}}

    @staticmethod
    def zone(color, sq):
        return sq in Legan.ZONES[color]


GAMES = {"maharajah": Game, "berolina": Berolina, "legan": Legan}


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def name(f, r):
    return "abcdefgh"[f] + str(r + 1)


def color(p):
    return "w" if p.isupper() else "b"


class Pos:
    def __init__(self, fen, game=Game):
        parts = fen.split()
        self.game = game
        self.board = {}
        for i, row in enumerate(parts[0].split("/")):
            f = 0
            for c in row:
                if c.isdigit():
                    f += int(c)
                else:
                    self.board[(f, 7 - i)] = c
                    f += 1
        self.turn = parts[1]
        self.castling = "" if parts[2] == "-" else parts[2]
        self.ep = None if parts[3] == "-" else ("abcdefgh".index(parts[3][0]), int(parts[3][1:]) - 1)
        self.ep_victim = None
        if self.ep:
            # The pawn that skipped the square stands one of its steps beyond it.
            sign = -1 if self.turn == "w" else 1
            for df, dr in game.pawn_moves:
                sq = (self.ep[0] + df * sign, self.ep[1] + dr * sign)
                if self.board.get(sq) == ("p" if self.turn == "w" else "P"):
                    self.ep_victim = sq
        self.half = int(parts[4]) if len(parts) > 4 else 0
        self.full = int(parts[5]) if len(parts) > 5 else 1

    def copy(self):
        p = Pos.__new__(Pos)
        p.game, p.board, p.turn = self.game, dict(self.board), self.turn
        p.castling, p.ep, p.half, p.full = self.castling, self.ep, self.half, self.full
        p.ep_victim = self.ep_victim
        return p

    def attacked(self, sq, by):
        """Whether a piece of `by` attacks `sq`."""
        f, r = sq
        for (pf, pr), p in self.board.items():
            if color(p) != by:
                continue
            u = p.upper()
            if u == "P":
                sign = 1 if by == "w" else -1
                if any((f - pf, r - pr) == (df * sign, dr * sign) for df, dr in self.game.pawn_captures):
                    return True
                continue
            leaps, slides = MOVES[u]
            if (f - pf, r - pr) in leaps:
                return True
            for df, dr in slides:
                x, y = pf + df, pr + dr
                while on(x, y):
                    if (x, y) == sq:
                        return True
                    if (x, y) in self.board:
                        break
                    x, y = x + df, y + dr
        return False

    def royal_square(self, c):
        want = self.game.royal[c] if c == "w" else self.game.royal[c].lower()
        for sq, p in self.board.items():
            if p == want:
                return sq
        return None

    def pseudo(self):
        """Every move by the pieces' movement: (from, to, promotion letter or '')."""
        us = self.turn
        out = []
        for (f, r), p in list(self.board.items()):
            if color(p) != us:
                continue
            u = p.upper()
            if u == "P":
                sign = 1 if us == "w" else -1
                start = 1 if us == "w" else 6
                promos = self.game.promote[us]

                def add(to, frm=(f, r)):
                    if self.game.zone(us, to) and promos:
                        out.extend((frm, to, x.lower()) for x in promos)
                    else:
                        out.append((frm, to, ""))

                for df, dr in self.game.pawn_moves:
                    one = (f + df * sign, r + dr * sign)
                    if not on(*one) or one in self.board:
                        continue
                    add(one)
                    two = (f + 2 * df * sign, r + 2 * dr * sign)
                    if self.game.double_step and r == start and on(*two) and two not in self.board:
                        out.append(((f, r), two, ""))
                for df, dr in self.game.pawn_captures:
                    to = (f + df * sign, r + dr * sign)
                    if not on(*to):
                        continue
                    if to in self.board and color(self.board[to]) != us:
                        add(to)
                    elif to == self.ep:
                        out.append(((f, r), to, ""))
                continue
            leaps, slides = MOVES[u]
            for df, dr in leaps:
                to = (f + df, r + dr)
                if on(*to) and (to not in self.board or color(self.board[to]) != us):
                    out.append(((f, r), to, ""))
            for df, dr in slides:
                x, y = f + df, r + dr
                while on(x, y):
                    if (x, y) in self.board:
                        if color(self.board[(x, y)]) != us:
                            out.append(((f, r), (x, y), ""))
                        break
                    out.append(((f, r), (x, y), ""))
                    x, y = x + df, y + dr
        out.extend(self.castles())
        return out

    def castles(self):
        """Chess castling by the side's king (not the maharajah): king and rook unmoved (the
        rights), the squares between empty, the king not in check and not crossing or
        landing on an attacked square."""
        us, them = self.turn, "b" if self.turn == "w" else "w"
        if not self.game.castling:
            return []
        rank = 0 if us == "w" else 7
        king = "K" if us == "w" else "k"
        out = []
        if self.board.get((4, rank)) != king:
            return out
        for right, rook_f, king_to, empty in (("K", 7, 6, (5, 6)), ("Q", 0, 2, (1, 2, 3))):
            r = right if us == "w" else right.lower()
            if r not in self.castling:
                continue
            if any((f, rank) in self.board for f in empty):
                continue
            path = (4, 5, 6) if king_to == 6 else (4, 3, 2)
            if any(self.attacked((f, rank), them) for f in path):
                continue
            out.append(((4, rank), (king_to, rank), ""))
        return out

    def play(self, m):
        frm, to, promo = m
        p = self.board.pop(frm)
        us = self.turn
        captured = self.board.pop(to, None)
        self.half += 1
        if captured or p.upper() == "P":
            self.half = 0
        sign = 1 if us == "w" else -1
        step = ((to[0] - frm[0]) * sign, (to[1] - frm[1]) * sign)
        # En passant: a capturing step onto the skipped square (a quiet step onto it, as a
        # Berolina pawn's diagonal one can be, takes nothing).
        if p.upper() == "P" and to == self.ep and captured is None and step in self.game.pawn_captures:
            self.board.pop(self.ep_victim)
        self.ep = self.ep_victim = None
        if p.upper() == "P" and abs(to[1] - frm[1]) == 2:
            # The skipped square, straight or diagonal, and the pawn a capture there removes.
            self.ep = ((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2)
            self.ep_victim = to
        if p.upper() == "K" and abs(to[0] - frm[0]) == 2:
            rank = frm[1]
            rook_from, rook_to = ((7, rank), (5, rank)) if to[0] == 6 else ((0, rank), (3, rank))
            self.board[rook_to] = self.board.pop(rook_from)
        self.board[to] = (promo.upper() if us == "w" else promo) if promo else p
        lost = set()
        for sq, rights in (((4, 0), "KQ"), ((7, 0), "K"), ((0, 0), "Q"), ((4, 7), "kq"), ((7, 7), "k"), ((0, 7), "q")):
            if sq in (frm, to):
                lost |= set(rights)
        self.castling = "".join(c for c in self.castling if c not in lost)
        if us == "b":
            self.full += 1
        self.turn = "b" if us == "w" else "w"

    def legal(self):
        out = []
        for m in self.pseudo():
            after = self.copy()
            after.play(m)
            king = after.royal_square(self.turn)
            if king is None or not after.attacked(king, after.turn):
                out.append(m)
        return out

    def uci(self, m):
        return name(*m[0]) + name(*m[1]) + m[2]

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = self.board.get((f, r))
                if p is None:
                    empty += 1
                else:
                    row += (str(empty) if empty else "") + p
                    empty = 0
            rows.append(row + (str(empty) if empty else ""))
        ep = name(*self.ep) if self.ep else "-"
        return f"{'/'.join(rows)} {self.turn} {self.castling or '-'} {ep} {self.half} {self.full}"


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        after = pos.copy()
        after.play(m)
        total += perft(after, depth - 1)
    return total


def main():
    cmd, game = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    opt = lambda n, d: args[args.index(n) + 1] if n in args else d
    if cmd == "perft":
        depth = int(args[0])
        fens = [args[i + 1] for i, a in enumerate(args) if a == "--fen"] or [START[game]]
        for i, fen in enumerate(fens):
            print(f"\nid {game}-{i}\nepd {fen}")
            for d in range(1, depth + 1):
                print(f"perft {d} {perft(Pos(fen, GAMES[game]), d)}", flush=True)
    elif cmd == "moves":
        rng = random.Random(int(opt("--seed", "1")))
        bias = "--bias" in args
        for _ in range(int(opt("--games", "4"))):
            pos = Pos(START[game], GAMES[game])
            for _ in range(120):
                moves = sorted(pos.legal(), key=pos.uci)
                print(f"{pos.fen()}\t{' '.join(pos.uci(m) for m in moves)}")
                if not moves:
                    break
                special = [m for m in moves if m[2] or (pos.board[m[0]] in "Kk" and abs(m[1][0] - m[0][0]) == 2)]
                pos.play(rng.choice(special if bias and special else moves))


if __name__ == "__main__":
    main()
