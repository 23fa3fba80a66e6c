#!/usr/bin/env python3
"""A plain, independent reference for Ambiguous Chess, which no other program plays (test
tooling only). Written from GAMES.md (the king-capture conventions and section 6) alone, with
none of chessd's code: a square table, every move a piece can make is legal (there is no
check, no castling), a turn built as the rule says: execute the opponent's target, then mark.
Slow, and meant to be obviously right rather than fast.

  tools/ref_ambiguous.py moves --seed N --games G [--plies P] [--bias] [--fen FEN] > tests/data/wide-ambiguous.moves

`moves` plays seeded random games (from the start, or from FEN) and prints for every position reached
`FEN<TAB>sorted legal turns<TAB>end<TAB>turn played<TAB>FEN after the turn`, where end is `-`
or `TERMINATION RESULT` (`king-captured 1-0`, `stalemate 1/2-1/2`) and the last two columns are
`-` in a game's last position. With `--bias` a turn whose execution or forced move captures
(a king first) or promotes, or whose mark is an en passant square, is played whenever there is
one.

The notation is chessd's (see src/wide/ambiguous.rs): one turn is the execution (`g1f3`, with
the promotion letter), `>` and the mark, and `=` with the move the mark forced
(`e7e5>d4=e3d4`); White's first turn is `>e4`. FEN: six fields as chess, then the pending
target (`-` when none). With a target pending, the side field names the player who executes
it, and the en passant field is the marking player's skipped square, written only when the
mark is that square; without one, the en passant square is written while a pawn of the side to
move can take there. The halfmove count restarts on a turn in which a part captured or moved a
pawn; the move number grows after Black's turn. A turn that ends the game leaves the side field
as it was.
"""
import random
import sys

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 -"
FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK = [(1, 0), (0, 1), (-1, 0), (0, -1)]
BISHOP = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
SLIDES = {"B": BISHOP, "R": ROOK, "Q": ROOK + BISHOP}


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def parse_sq(s):
    return (FILES.index(s[0]), int(s[1]) - 1)


def colour(p):
    return "w" if p.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


class Pos:
    def __init__(self, fen):
        f = fen.split()
        self.board = {}
        for i, row in enumerate(f[0].split("/")):
            file = 0
            for ch in row:
                if ch.isdigit():
                    file += int(ch)
                else:
                    self.board[(file, 7 - i)] = ch
                    file += 1
        self.turn = f[1]
        self.pending = None if f[6] == "-" else parse_sq(f[6])
        # `ep` belongs to the side whose pieces move next on the board.
        self.ep = None if f[3] == "-" else parse_sq(f[3])
        self.half, self.full = int(f[4]), int(f[5])

    def copy(self):
        p = Pos.__new__(Pos)
        p.board = dict(self.board)
        p.turn, p.pending, p.ep, p.half, p.full = self.turn, self.pending, self.ep, self.half, self.full
        return p

    def mover(self):
        """Whose pieces move next on the board: the marking player's while a target waits."""
        return other(self.turn) if self.pending else self.turn

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
        ep = name(self.ep) if self.ep else "-"
        pending = name(self.pending) if self.pending else "-"
        return f"{'/'.join(rows)} {self.turn} - {ep} {self.half} {self.full} {pending}"

    def moves(self, c):
        """Every move side c's pieces can make: (from, to, promotion letter or '')."""
        out = []
        fwd = 1 if c == "w" else -1
        start, last = (1, 7) if c == "w" else (6, 0)
        for (f, r), p in self.board.items():
            if colour(p) != c:
                continue
            kind = p.upper()
            targets = []
            if kind == "P":
                one = (f, r + fwd)
                if on(*one) and one not in self.board:
                    targets.append(one)
                    two = (f, r + 2 * fwd)
                    if r == start and two not in self.board:
                        targets.append(two)
                for df in (-1, 1):
                    t = (f + df, r + fwd)
                    if not on(*t):
                        continue
                    if (t in self.board and colour(self.board[t]) != c) or t == self.ep:
                        targets.append(t)
                for t in targets:
                    if t[1] == last:
                        out += [((f, r), t, x) for x in "qrbn"]
                    else:
                        out.append(((f, r), t, ""))
                continue
            if kind in ("N", "K"):
                for df, dr in KNIGHT if kind == "N" else KING:
                    t = (f + df, r + dr)
                    if on(*t) and (t not in self.board or colour(self.board[t]) != c):
                        targets.append(t)
            else:
                for df, dr in SLIDES[kind]:
                    t = (f + df, r + dr)
                    while on(*t):
                        if t in self.board:
                            if colour(self.board[t]) != c:
                                targets.append(t)
                            break
                        targets.append(t)
                        t = (t[0] + df, t[1] + dr)
            out += [((f, r), t, "") for t in targets]
        return out

    def resets(self, m):
        frm, to, _ = m
        return self.board[frm].upper() == "P" or to in self.board

    def play_board(self, m):
        """Side `mover()`'s move m on the board; sets the en passant square for the other side
        when one of its pawns could take there."""
        frm, to, promo = m
        p = self.board.pop(frm)
        c = colour(p)
        if p.upper() == "P" and to == self.ep and to not in self.board:
            del self.board[(to[0], frm[1])]
        self.board[to] = (promo.upper() if c == "w" else promo) if promo else p
        self.ep = None
        if p.upper() == "P" and abs(to[1] - frm[1]) == 2:
            skipped = (frm[0], (frm[1] + to[1]) // 2)
            enemy = "p" if c == "w" else "P"
            fwd = 1 if c == "w" else -1
            if any(self.board.get((skipped[0] + df, skipped[1] + fwd)) == enemy for df in (-1, 1)):
                self.ep = skipped

    def kingless(self):
        pieces = set(self.board.values())
        return "K" not in pieces or "k" not in pieces

    def end(self):
        pieces = set(self.board.values())
        if "K" not in pieces:
            return "king-captured 0-1"
        if "k" not in pieces:
            return "king-captured 1-0"
        if self.pending is None and not self.moves(self.turn):
            return "stalemate 1/2-1/2"
        return None

    def turns(self):
        """{text: position after} for every whole turn."""
        if self.end():
            return {}
        out = {}
        player = self.turn
        if self.pending is None:
            execs = [None]
        else:
            execs = [m for m in self.moves(other(player)) if m[1] == self.pending]
        for e in execs:
            base = self.copy()
            reset = False
            text = ""
            if e is not None:
                reset = base.resets(e)
                base.play_board(e)
                text = name(e[0]) + name(e[1]) + e[2]
            base.pending = None
            if base.kingless():
                out[text] = base.finish(player, reset)
                continue
            own = base.moves(player)
            marks = []
            for m in own:
                if m[1] not in marks:
                    marks.append(m[1])
            if not marks:
                out[text] = base.finish(player, reset)
                continue
            for t in marks:
                after = base.copy()
                reaching = [m for m in own if m[1] == t]
                word = text + ">" + name(t)
                r = reset
                if len(reaching) == 1:
                    f = reaching[0]
                    r = r or after.resets(f)
                    after.play_board(f)
                    word += "=" + name(f[0]) + name(f[1])
                else:
                    after.pending = t
                    if after.ep != t:
                        after.ep = None
                after.turn = other(player)
                out[word] = after.finish(player, r)
        return out

    def finish(self, player, reset):
        self.half = 0 if reset else self.half + 1
        if player == "b":
            self.full += 1
        return self


def special(pos, text, after):
    """A turn that takes a king, promotes, captures in its execution, or marks an en passant
    square."""
    execution = text.split(">")[0]
    return (
        after.kingless()
        or len(execution) == 5
        or (execution and parse_sq(execution[2:4]) in pos.board)
        or (after.pending is not None and after.pending == after.ep)
    )


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    opt = lambda n, d: args[args.index(n) + 1] if n in args else d
    if cmd != "moves":
        sys.exit(__doc__)
    rng = random.Random(int(opt("--seed", "1")))
    bias = "--bias" in args
    for _ in range(int(opt("--games", "4"))):
        pos = Pos(opt("--fen", START))
        for _ in range(int(opt("--plies", "120"))):
            turns = pos.turns()
            end = pos.end() or "-"
            listed = " ".join(sorted(turns))
            if not turns:
                print(f"{pos.fen()}\t{listed}\t{end}\t-\t-")
                break
            pool = [t for t, after in sorted(turns.items()) if bias and special(pos, t, after)]
            pick = rng.choice(pool or sorted(turns))
            after = turns[pick]
            print(f"{pos.fen()}\t{listed}\t{end}\t{pick}\t{after.fen()}")
            pos = after


if __name__ == "__main__":
    main()
