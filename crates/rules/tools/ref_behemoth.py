#!/usr/bin/env python3
"""A plain, independent reference for Behemoth Chess, which no other program plays (test
tooling only). Written from GAMES.md (the king-capture conventions and section 6) alone, with
none of chessd's code: a square table, every move a piece can make is legal (there is no
check), the Behemoth an obstacle, its step walked square by square on a torus. Slow, and meant
to be obviously right rather than fast.

  tools/ref_behemoth.py moves --seed N --games G [--plies P] [--bias] > tests/data/wide-behemoth.moves
  tools/ref_behemoth.py perft DEPTH [--fen FEN]...           >> tests/data/wide-behemoth.perft

`moves` plays seeded random games, the steps drawn by this script (uniform over the 8
directions and the distances 1 to 4), and prints for every position reached
`FEN<TAB>sorted legal moves<TAB>end<TAB>move played<TAB>step drawn<TAB>FEN after the move`,
where end is `-` or `TERMINATION RESULT` (`king-captured 1-0`, `king-destroyed 1/2-1/2`,
`stalemate 1/2-1/2`), and the last three columns are `-` where there is none (a game's last
position; no step after a move that took a king). With `--bias` a move that takes a king,
castles, promotes or takes en passant is played whenever there is one (uniform games rarely
do). `perft` counts, as chessd defines it for
this game, every move and, after each move but the last, every one of the 32 steps.

FEN as chessd writes it: the Behemoth is `*`; the seventh field is written only when a step
is awaited (`~`) or the last step destroyed a king (`x`); the en passant square only while a
pawn of the side to move can take there.
"""
import random
import sys

START = "rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK = [(1, 0), (0, 1), (-1, 0), (0, -1)]
BISHOP = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
SLIDES = {"B": BISHOP, "R": ROOK, "Q": ROOK + BISHOP}
DIRECTIONS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1),
              "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
STEPS = [f"{d}{n}" for d in DIRECTIONS for n in range(1, 5)]


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def parse_sq(s):
    return (FILES.index(s[0]), int(s[1]) - 1)


def color(p):
    return "w" if p.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


class Pos:
    def __init__(self, fen):
        fields = fen.split()
        self.board, self.behemoth = {}, None
        for i, row in enumerate(fields[0].split("/")):
            r, f = 7 - i, 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                    continue
                if ch == "*":
                    self.behemoth = (f, r)
                else:
                    self.board[(f, r)] = ch
                f += 1
        self.turn = fields[1]
        self.castling = "" if fields[2] == "-" else fields[2]
        self.ep = None if fields[3] == "-" else parse_sq(fields[3])
        self.half, self.full = int(fields[4]), int(fields[5])
        extra = fields[6] if len(fields) > 6 else "-"
        self.pending, self.destroyed = extra == "~", extra == "x"

    def copy(self):
        p = Pos.__new__(Pos)
        p.__dict__ = dict(self.__dict__)
        p.board = dict(self.board)
        return p

    def free(self, sq):
        """No piece and not the Behemoth."""
        return sq not in self.board and sq != self.behemoth

    def has_king(self, c):
        return ("K" if c == "w" else "k") in self.board.values()

    def over(self):
        return not (self.has_king("w") and self.has_king("b"))

    def ep_usable(self):
        """The skipped square can still be taken on: not the Behemoth's, the pawn that
        stepped still there, a pawn of the side to move beside it."""
        if self.ep is None or self.ep == self.behemoth:
            return False
        f, r = self.ep
        back = -1 if self.turn == "w" else 1
        victim = self.board.get((f, r + back))
        if victim != ("p" if self.turn == "w" else "P"):
            return False
        mine = "P" if self.turn == "w" else "p"
        return any(self.board.get((f + df, r + back)) == mine for df in (-1, 1))

    def moves(self):
        if self.pending or self.over():
            return []
        out = []
        us = self.turn
        for (f, r), p in list(self.board.items()):
            if color(p) != us:
                continue
            kind = p.upper()
            if kind == "P":
                out += self.pawn_moves(f, r)
            elif kind == "N" or kind == "K":
                for df, dr in (KNIGHT if kind == "N" else KING):
                    to = (f + df, r + dr)
                    if on(*to) and to != self.behemoth and (to not in self.board or color(self.board[to]) != us):
                        out.append(name((f, r)) + name(to))
                if kind == "K":
                    out += self.castles(f, r)
            else:
                for df, dr in SLIDES[kind]:
                    to = (f + df, r + dr)
                    while on(*to) and to != self.behemoth:
                        if to in self.board:
                            if color(self.board[to]) != us:
                                out.append(name((f, r)) + name(to))
                            break
                        out.append(name((f, r)) + name(to))
                        to = (to[0] + df, to[1] + dr)
        return sorted(out)

    def pawn_moves(self, f, r):
        us = self.turn
        up = 1 if us == "w" else -1
        start, last = (1, 7) if us == "w" else (6, 0)
        targets = []
        one = (f, r + up)
        if on(*one) and self.free(one):
            targets.append(one)
            two = (f, r + 2 * up)
            if r == start and self.free(two):
                targets.append(two)
        for df in (-1, 1):
            to = (f + df, r + up)
            if not on(*to) or to == self.behemoth:
                continue
            if (to in self.board and color(self.board[to]) != us) or (to == self.ep and self.ep_usable()):
                targets.append(to)
        out = []
        for to in targets:
            if to[1] == last:
                out += [name((f, r)) + name(to) + x for x in "qrbn"]
            else:
                out.append(name((f, r)) + name(to))
        return out

    def castles(self, f, r):
        us = self.turn
        home = 0 if us == "w" else 7
        if (f, r) != (4, home):
            return []
        out = []
        rook = "R" if us == "w" else "r"
        for right, rook_file, empty, to in (("K", 7, (5, 6), 6), ("Q", 0, (1, 2, 3), 2)):
            right = right if us == "w" else right.lower()
            if right in self.castling and self.board.get((rook_file, home)) == rook \
                    and all(self.free((x, home)) for x in empty):
                out.append(name((f, r)) + name((to, home)))
        return out

    def drop_rights(self, sq, piece):
        """A king or rook leaving or lost takes its castling rights along."""
        if piece in "Kk":
            gone = "KQ" if piece == "K" else "kq"
            self.castling = "".join(c for c in self.castling if c not in gone)
        for c, corner in (("K", (7, 0)), ("Q", (0, 0)), ("k", (7, 7)), ("q", (0, 7))):
            if sq == corner:
                self.castling = self.castling.replace(c, "")

    def play(self, move):
        frm, to, promo = parse_sq(move[:2]), parse_sq(move[2:4]), move[4:]
        p = self.board.pop(frm)
        us = self.turn
        self.half += 1
        ep, self.ep = self.ep, None
        if p.upper() == "P":
            self.half = 0
            if to == ep and to not in self.board:
                victim = (to[0], frm[1])
                del self.board[victim]
            if abs(to[1] - frm[1]) == 2:
                self.ep = (frm[0], (frm[1] + to[1]) // 2)
        if to in self.board:
            self.half = 0
            self.drop_rights(to, self.board[to])
        self.drop_rights(frm, p)
        if p.upper() == "K" and abs(to[0] - frm[0]) == 2:
            rook_from, rook_to = ((7, to[1]), (5, to[1])) if to[0] == 6 else ((0, to[1]), (3, to[1]))
            self.board[rook_to] = self.board.pop(rook_from)
        self.board[to] = (promo.upper() if us == "w" else promo) if promo else p
        if us == "b":
            self.full += 1
        self.turn = other(us)
        if self.ep is not None and not self.ep_usable():
            self.ep = None
        self.pending = not self.over()

    def step(self, text):
        df, dr = DIRECTIONS[text[:-1]]
        f, r = self.behemoth
        for _ in range(int(text[-1])):
            f, r = (f + df) % 8, (r + dr) % 8
            if (f, r) in self.board:
                self.half = 0
                self.drop_rights((f, r), self.board.pop((f, r)))
        self.behemoth = (f, r)
        self.pending = False
        self.destroyed = self.over()
        if self.ep is not None and not self.ep_usable():
            self.ep = None

    def end(self):
        w, b = self.has_king("w"), self.has_king("b")
        how = "king-destroyed" if self.destroyed else "king-captured"
        if not w and not b:
            return f"{how} 1/2-1/2"
        if not w:
            return f"{how} 0-1"
        if not b:
            return f"{how} 1-0"
        if not self.pending and not self.moves():
            return "stalemate 1/2-1/2"
        return "-"

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = "*" if (f, r) == self.behemoth else self.board.get((f, r))
                if p is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
            rows.append(row + (str(empty) if empty else ""))
        rights = "".join(c for c in "KQkq" if c in self.castling) or "-"
        ep = name(self.ep) if self.ep is not None else "-"
        out = f"{'/'.join(rows)} {self.turn} {rights} {ep} {self.half} {self.full}"
        if self.pending:
            out += " ~"
        elif self.destroyed:
            out += " x"
        return out


def special(p, move):
    """Takes a king, castles, promotes or takes en passant."""
    frm, to = parse_sq(move[:2]), parse_sq(move[2:4])
    piece, target = p.board[frm], p.board.get(to, "")
    return (target.upper() == "K" or len(move) == 5
            or (piece.upper() == "K" and abs(to[0] - frm[0]) == 2)
            or (piece.upper() == "P" and to == p.ep))


def perft(p, depth):
    if depth == 0:
        return 1
    if p.pending:
        total = 0
        for s in STEPS:
            q = p.copy()
            q.step(s)
            total += perft(q, depth)
        return total
    moves = p.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        q = p.copy()
        q.play(m)
        total += perft(q, depth - 1)
    return total


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    opt = lambda n, d: args[args.index(n) + 1] if n in args else d
    if cmd == "moves":
        rng = random.Random(int(opt("--seed", "1")))
        for _ in range(int(opt("--games", "4"))):
            p = Pos(START)
            for _ in range(int(opt("--plies", "150"))):
                moves, end = p.moves(), p.end()
                if end != "-" or not moves:
                    print(f"{p.fen()}\t{' '.join(moves)}\t{end}\t-\t-\t-")
                    break
                pool = [m for m in moves if special(p, m)] if "--bias" in args else []
                m = rng.choice(pool or moves)
                before = p.fen()
                p.play(m)
                after = p.fen()
                s = rng.choice(STEPS) if p.pending else "-"
                print(f"{before}\t{' '.join(moves)}\t{end}\t{m}\t{s}\t{after}")
                if s != "-":
                    p.step(s)
    elif cmd == "perft":
        depth = int(args[0])
        fens = [args[i + 1] for i, a in enumerate(args) if a == "--fen"] or [START]
        for i, fen in enumerate(fens):
            print(f"\nid behemoth-{i}\nepd {fen}")
            for d in range(1, depth + 1):
                print(f"perft {d} {perft(Pos(fen), d)}", flush=True)


if __name__ == "__main__":
    main()
