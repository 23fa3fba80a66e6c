#!/usr/bin/env python3
"""A plain, independent reference for the games only the seed site plays (test tooling only):
no engine anywhere plays them, so this is the second implementation the engine is checked
against. Written from ../shared/GAMES.md section 2 alone, with none of chessd's code or ideas:
a square dictionary, every piece's reach walked step by step, a move legal when its own king
is not attacked after it is played on a copy. Slow, and meant to be obviously right.

This file owns the mailbox basics (`Game`, `Pos`) any site game may reuse; each game is a
small subclass: Cylinder (`cylinder`), Knight Relay (`knightrelay`), Cheshire Cat
(`cheshirecat`).

  tools/ref_site.py perft GAME DEPTH [--fen FEN]...   >> tests/data/wide-GAME.perft
  tools/ref_site.py moves GAME --seed N --games G [--plies P] [--bias] [--fen FEN] > tests/data/wide-GAME.moves
  tools/ref_site.py check GAME --seed N --games G --chessd PATH [--depth D] [--bias]

`perft` prints suite lines (id / epd / perft DEPTH NODES). `moves` plays seeded random games
and prints, for every position reached, `FEN<TAB>sorted legal moves<TAB>end<TAB>move played`
(end: `-`, `checkmate`, `stalemate` or `insufficient`; the move `-` when the game ended or
its last ply was reached), so
tests/wide_site.rs compares the legal-move set, plays the move and compares the FEN it reaches
with the next line's, and compares the end. `--bias` takes, whenever it can, a move of the
game's own rules (a move across the seam, a relayed leap, a king's queen move, castling, en
passant, promotion); `--fen` starts every game from FEN (an endgame, to reach the material
rule's draws). `check` plays the same games live and compares, at every position, the
per-move counts at depth D (default 2) with `chessd perft --divide`; it exits 1 on a
difference.
"""
import random
import subprocess
import sys

CHESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK = [(1, 0), (0, 1), (-1, 0), (0, -1)]
BISHOP = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
SLIDES = {"B": BISHOP, "R": ROOK, "Q": ROOK + BISHOP}


def name(sq):
    return "abcdefgh"[sq[0]] + str(sq[1] + 1)


def square(text):
    return ("abcdefgh".index(text[0]), int(text[1:]) - 1)


def color(p):
    return "w" if p.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


def light(sq):
    return (sq[0] + sq[1]) % 2 == 1


class Game:
    """Chess on a mailbox board; the subclasses change what their rule changes."""

    start = CHESS
    castling = True
    en_passant = True

    def norm(self, f, r):
        """The square `(f, r)` names, or None off the board."""
        return (f, r) if 0 <= f < 8 and 0 <= r < 8 else None

    def can_land(self, pos, sq):
        return True

    def can_be_taken(self, p):
        return True

    def reach(self, pos, sq):
        """The squares the piece on `sq` attacks: those it could capture on."""
        p = pos.board[sq]
        u, (f, r) = p.upper(), sq
        out = set()
        if u == "P":
            d = 1 if color(p) == "w" else -1
            for df in (-1, 1):
                t = self.norm(f + df, r + d)
                if t:
                    out.add(t)
        elif u == "N":
            out |= {t for t in (self.norm(f + a, r + b) for a, b in KNIGHT) if t}
        elif u == "K":
            out |= {t for t in (self.norm(f + a, r + b) for a, b in KING) if t}
        if u in SLIDES:
            out |= self.slide(pos, sq, SLIDES[u])
        return out

    def slide(self, pos, sq, dirs):
        out = set()
        for df, dr in dirs:
            f, r = sq
            while True:
                f, r = f + df, r + dr
                t = self.norm(f, r)
                # A ray ends at the edge, or before it comes back to where it began.
                if t is None or t == sq:
                    break
                f, r = t
                out.add(t)
                if t in pos.board:
                    break
        return out

    def quiet_extra(self, pos, sq):
        """Squares the piece on `sq` may move to only when they are empty (beyond its reach)."""
        return set()

    def after_move(self, pos, frm, to, piece):
        pass

    def ep_allowed(self, pos, skipped):
        return True

    def insufficient(self, pos):
        """The chess rule: only kings, knights and bishops, and either no knight with every
        bishop on one colour, or at most one knight or bishop in all."""
        others = [p for p in pos.board.values() if p.upper() not in "KNB"]
        if others:
            return False
        minors = [(sq, p) for sq, p in pos.board.items() if p.upper() in "NB"]
        if not any(p.upper() == "N" for _, p in minors):
            colours = {light(sq) for sq, _ in minors}
            if len(colours) <= 1:
                return True
        return len(minors) <= 1


class Cylinder(Game):
    """The a- and h-files are joined: every sideways step wraps, ranks do not."""

    def norm(self, f, r):
        return (f % 8, r) if 0 <= r < 8 else None


class KnightRelay(Game):
    """A piece (not king or knight) a knight's move from a friendly knight also moves and
    captures as a knight (a pawn never onto rank 1 or 8); knights never capture, are never
    captured and attack nothing; no en passant."""

    en_passant = False

    def can_be_taken(self, p):
        return p.upper() != "N"

    def relayed(self, pos, sq):
        p = pos.board[sq]
        if p.upper() in "KN":
            return False
        knight = "N" if color(p) == "w" else "n"
        return any(pos.board.get(self.norm(sq[0] + a, sq[1] + b)) == knight for a, b in KNIGHT
                   if self.norm(sq[0] + a, sq[1] + b))

    def leaps(self, pos, sq):
        out = {t for t in (self.norm(sq[0] + a, sq[1] + b) for a, b in KNIGHT) if t}
        if pos.board[sq].upper() == "P":
            out = {t for t in out if t[1] not in (0, 7)}
        return out

    def reach(self, pos, sq):
        p = pos.board[sq]
        if p.upper() == "N":
            return set()
        out = super().reach(pos, sq)
        if self.relayed(pos, sq):
            out |= self.leaps(pos, sq)
        return out

    def quiet_extra(self, pos, sq):
        # A knight moves as usual, to empty squares only; a relayed pawn leaps to empty
        # squares too (its reach holds only what it captures on).
        if pos.board[sq].upper() == "N":
            return {t for t in (self.norm(sq[0] + a, sq[1] + b) for a, b in KNIGHT) if t}
        if pos.board[sq].upper() == "P" and self.relayed(pos, sq):
            return self.leaps(pos, sq)
        return set()

    def insufficient(self, pos):
        def can_mate(c):
            mine = {sq: p for sq, p in pos.board.items() if color(p) == c}
            kinds = [p.upper() for p in mine.values()]
            if any(k in "QRP" for k in kinds):
                return True
            bishops = {light(sq) for sq, p in mine.items() if p.upper() == "B"}
            return len(bishops) == 2 or (bishops and "N" in kinds)
        return not can_mate("w") and not can_mate("b")


class CheshireCat(Game):
    """A square a piece leaves vanishes: nothing lands there again, pieces pass over it. A
    king that has not moved moves (and attacks) as a queen. No castling; no en passant over a
    vanished square; insufficient material never ends the game."""

    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1"
    castling = False

    def can_land(self, pos, sq):
        return sq not in pos.vanished

    def reach(self, pos, sq):
        p = pos.board[sq]
        if p.upper() == "K" and p in pos.fresh:
            return self.slide(pos, sq, ROOK + BISHOP)
        return super().reach(pos, sq)

    def after_move(self, pos, frm, to, piece):
        pos.vanished.add(frm)
        if piece.upper() == "K":
            pos.fresh.discard(piece)

    def ep_allowed(self, pos, skipped):
        return skipped not in pos.vanished

    def insufficient(self, pos):
        return False


GAMES = {"cylinder": Cylinder(), "knightrelay": KnightRelay(), "cheshirecat": CheshireCat()}


class Pos:
    def __init__(self, fen, game):
        parts = fen.split()
        self.game = game
        self.board, self.vanished, self.fresh = {}, set(), set()
        for i, row in enumerate(parts[0].split("/")):
            f = 0
            for c in row:
                if c.isdigit():
                    f += int(c)
                    continue
                if c == "*":
                    self.vanished.add((f, 7 - i))
                else:
                    self.board[(f, 7 - i)] = c
                f += 1
        self.turn = parts[1]
        rights = "" if parts[2] == "-" else parts[2]
        if game.castling:
            self.castling = rights
        else:
            self.castling = ""
            self.fresh = {c for c in rights if c in "Kk"}
        self.ep = None
        if game.en_passant and parts[3] != "-":
            self.ep = square(parts[3])
        self.half = int(parts[4]) if len(parts) > 4 else 0
        self.full = int(parts[5]) if len(parts) > 5 else 1
        # Either form of the field is read; the square is kept only where it is usable.
        if self.ep and not (game.ep_allowed(self, self.ep) and self.ep_legal()):
            self.ep = None

    def copy(self):
        p = Pos.__new__(Pos)
        p.game, p.board, p.turn = self.game, dict(self.board), self.turn
        p.vanished, p.fresh = set(self.vanished), set(self.fresh)
        p.castling, p.ep, p.half, p.full = self.castling, self.ep, self.half, self.full
        return p

    def attacked(self, sq, by):
        return any(color(p) == by and sq in self.game.reach(self, s) for s, p in self.board.items())

    def king(self, c):
        k = "K" if c == "w" else "k"
        return next((s for s, p in self.board.items() if p == k), None)

    def in_check(self):
        return self.attacked(self.king(self.turn), other(self.turn))

    def pseudo(self):
        """Every move by the pieces' movement: (from, to, promotion letter, kind)."""
        g, us = self.game, self.turn
        out = []
        for sq, p in list(self.board.items()):
            if color(p) != us:
                continue
            lands = set()
            for t in g.reach(self, sq):
                q = self.board.get(t)
                if p.upper() == "P":
                    if q and color(q) != us and g.can_be_taken(q):
                        lands.add(t)
                elif q is None or (color(q) != us and g.can_be_taken(q)):
                    lands.add(t)
            for t in g.quiet_extra(self, sq):
                if t not in self.board:
                    lands.add(t)
            if p.upper() == "P":
                d = 1 if us == "w" else -1
                one = g.norm(sq[0], sq[1] + d)
                if one and one not in self.board:
                    lands.add(one)
                    # (a vanished square is empty: a double step may pass over it)
                two = g.norm(sq[0], sq[1] + 2 * d)
                if sq[1] == (1 if us == "w" else 6) and one not in self.board and two not in self.board \
                        and g.can_land(self, two):
                    out.append((sq, two, "", "double"))
                if self.ep and self.ep in g.reach(self, sq):
                    out.append((sq, self.ep, "", "ep"))
            for t in lands:
                if not g.can_land(self, t):
                    continue
                if p.upper() == "P" and t[1] in (0, 7):
                    out.extend((sq, t, x, "") for x in "qrbn")
                else:
                    out.append((sq, t, "", ""))
        out.extend(self.castles())
        return out

    def castles(self):
        """Standard castling squares, on the rook's own side: the squares between empty, the
        king not in check nor crossing or landing on an attacked square (and, as for every
        move, not in check afterwards)."""
        us, them = self.turn, other(self.turn)
        if not self.game.castling:
            return []
        rank = 0 if us == "w" else 7
        king = "K" if us == "w" else "k"
        out = []
        if self.board.get((4, rank)) != king:
            return out
        for right, king_to, empty in (("K", 6, (5, 6)), ("Q", 2, (1, 2, 3))):
            if (right if us == "w" else right.lower()) not in self.castling:
                continue
            if any((f, rank) in self.board for f in empty):
                continue
            path = (4, 5, 6) if king_to == 6 else (4, 3, 2)
            if any(self.attacked((f, rank), them) for f in path):
                continue
            out.append(((4, rank), (king_to, rank), "", "castle"))
        return out

    def play(self, m):
        frm, to, promo, kind = m
        g, us = self.game, self.turn
        p = self.board.pop(frm)
        captured = self.board.pop(to, None)
        self.half += 1
        if captured or p.upper() == "P":
            self.half = 0
        if kind == "ep":
            d = 1 if us == "w" else -1
            self.board.pop((to[0], to[1] - d))
        self.ep = None
        if kind == "double" and g.en_passant:
            skipped = (frm[0], (frm[1] + to[1]) // 2)
            pawn = "p" if us == "w" else "P"
            # Written only where an enemy pawn stands to take (and, below, can take legally).
            takers = [s for s, q in self.board.items() if q == pawn and skipped in g.reach(self, s)]
            if takers and g.ep_allowed(self, skipped):
                self.ep = skipped
        if kind == "castle":
            rank = frm[1]
            rook_from, rook_to = ((7, rank), (5, rank)) if to[0] == 6 else ((0, rank), (3, rank))
            self.board[rook_to] = self.board.pop(rook_from)
        self.board[to] = (promo.upper() if us == "w" else promo) if promo else p
        g.after_move(self, frm, to, p)
        # A skipped square that vanished earlier stays no en passant square.
        if self.ep and not g.ep_allowed(self, self.ep):
            self.ep = None
        lost = set()
        for sq, rights in (((4, 0), "KQ"), ((7, 0), "K"), ((0, 0), "Q"), ((4, 7), "kq"), ((7, 7), "k"), ((0, 7), "q")):
            if sq in (frm, to):
                lost |= set(rights)
        self.castling = "".join(c for c in self.castling if c not in lost)
        if us == "b":
            self.full += 1
        self.turn = other(us)
        if self.ep and not self.ep_legal():
            self.ep = None

    def ep_legal(self):
        """Whether an en passant capture is legal here: chessd writes the square only then,
        as it does for chess."""
        for m in self.pseudo():
            if m[3] == "ep":
                after = self.copy()
                after.play(m)
                if not after.attacked(after.king(self.turn), after.turn):
                    return True
        return False

    def legal(self):
        out = []
        for m in self.pseudo():
            after = self.copy()
            after.play(m)
            if not after.attacked(after.king(self.turn), after.turn):
                out.append(m)
        return out

    def end(self, moves):
        if not moves:
            return "checkmate" if self.in_check() else "stalemate"
        return "insufficient" if self.game.insufficient(self) else "-"

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = self.board.get((f, r)) or ("*" if (f, r) in self.vanished else None)
                if p is None:
                    empty += 1
                else:
                    row += (str(empty) if empty else "") + p
                    empty = 0
            rows.append(row + (str(empty) if empty else ""))
        rights = self.castling if self.game.castling else "".join(sorted(self.fresh))
        ep = name(self.ep) if self.ep else "-"
        return f"{'/'.join(rows)} {self.turn} {rights or '-'} {ep} {self.half} {self.full}"


def uci(m):
    return name(m[0]) + name(m[1]) + m[2]


def special(pos, m):
    """A move only this game's rules make (or a rare chess rule)."""
    frm, to, promo, kind = m
    if kind or promo:
        return True
    p = pos.board[frm]
    if isinstance(pos.game, Cylinder):
        return abs(to[0] - frm[0]) > 2 or (pos.board.get(to) is not None and abs(to[0] - frm[0]) > 1)
    if isinstance(pos.game, KnightRelay):
        return p.upper() != "N" and sorted((abs(to[0] - frm[0]), abs(to[1] - frm[1]))) == [1, 2]
    if isinstance(pos.game, CheshireCat):
        return p.upper() == "K" and max(abs(to[0] - frm[0]), abs(to[1] - frm[1])) > 1
    return False


def perft(pos, depth):
    moves = pos.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        after = pos.copy()
        after.play(m)
        total += perft(after, depth - 1)
    return total


def playouts(game, seed, games, plies, bias, fen=None):
    rng = random.Random(seed)
    for _ in range(games):
        pos = Pos(fen or GAMES[game].start, GAMES[game])
        for ply in range(plies):
            moves = sorted(pos.legal(), key=uci)
            end = pos.end(moves)
            pool = [m for m in moves if special(pos, m)] if bias else []
            # The last ply plays nothing: the next line starts a new game.
            m = rng.choice(pool or moves) if end == "-" and ply + 1 < plies else None
            yield pos, moves, end, m
            if m is None:
                break
            pos.play(m)


def main():
    cmd, game = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    opt = lambda n, d: args[args.index(n) + 1] if n in args else d
    seed, games = int(opt("--seed", "1")), int(opt("--games", "4"))
    plies, bias = int(opt("--plies", "120")), "--bias" in args
    if cmd == "perft":
        depth = int(args[0])
        fens = [args[i + 1] for i, a in enumerate(args) if a == "--fen"] or [GAMES[game].start]
        for i, fen in enumerate(fens):
            print(f"\nid {game}-{i}\nepd {fen}")
            for d in range(1, depth + 1):
                print(f"perft {d} {perft(Pos(fen, GAMES[game]), d)}", flush=True)
    elif cmd == "moves":
        for pos, moves, end, m in playouts(game, seed, games, plies, bias, opt("--fen", None)):
            print(f"{pos.fen()}\t{' '.join(uci(x) for x in moves)}\t{end}\t{uci(m) if m else '-'}")
    elif cmd == "check":
        depth, chessd, bad, n = int(opt("--depth", "2")), opt("--chessd", "chessd"), 0, 0
        for pos, moves, end, m in playouts(game, seed, games, plies, bias):
            fen = pos.fen()
            theirs = {}
            for x in moves:
                after = pos.copy()
                after.play(x)
                theirs[uci(x)] = perft(after, depth - 1) if depth > 1 else 1
            out = subprocess.run([chessd, "perft", "--variant", game, "--depth", str(depth), "--fen", fen, "--divide"],
                                 capture_output=True, text=True)
            ours = dict((a, int(c)) for a, c in (l.split(": ") for l in out.stdout.splitlines() if ": " in l))
            n += 1
            if ours != theirs:
                bad += 1
                diff = {k: (ours.get(k), theirs.get(k)) for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k)}
                print(f"{fen}: (chessd, reference) {diff} {out.stderr.strip()}", flush=True)
        print(f"{game}: {n} positions, {bad} differ")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
