#!/usr/bin/env python3
"""A plain, independent reference for Recycle Chess and Ice Age Chess, which no other program
plays (test tooling only). Written from GAMES.md section 2 alone, with none of chessd's code or
ideas: a square table, moves tried one by one, a move legal when its own king is not attacked
after it. Slow, and meant to be obviously right rather than fast.

  tools/ref_recycle_iceage.py perft GAME DEPTH [--fen FEN]...  >> tests/data/wide-GAME.perft
  tools/ref_recycle_iceage.py moves GAME --seed N --games G [--plies P] > tests/data/wide-GAME.moves
  tools/ref_recycle_iceage.py check GAME --seed N --games G --chessd PATH [--depth D] [--plies P]

GAME: recycle or iceage. `perft` prints suite lines (id / epd / perft DEPTH NODES). `moves`
plays seeded random games and prints, for every position reached,
`FEN<TAB>sorted legal moves<TAB>end<TAB>move played`, where end is `-` or the position's end
as `TERMINATION RESULT` (`checkmate 1-0`, `king-frozen 1/2-1/2`), and the move played is `-`
at a game's last position. `check` plays seeded random games and compares every position's
per-move counts at depth D (default 2) with `chessd perft --divide`; it exits 1 on a
difference.
"""
import random
import subprocess
import sys

START = {
    "recycle": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "iceage": "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
}

KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK = [(1, 0), (0, 1), (-1, 0), (0, -1)]
BISHOP = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
SLIDES = {"B": BISHOP, "R": ROOK, "Q": ROOK + BISHOP}
ICE = "*"


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def name(sq):
    return "abcdefgh"[sq[0]] + str(sq[1] + 1)


def parse_sq(s):
    return ("abcdefgh".index(s[0]), int(s[1]) - 1)


def side(p):
    """'w', 'b', or None for an empty square or ice."""
    if p is None or p == ICE:
        return None
    return "w" if p.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


class Pos:
    def __init__(self, fen, game):
        self.game = game
        fields = fen.split()
        placement = fields[0]
        self.hand = {"w": [], "b": []}
        if "[" in placement:
            placement, held = placement.split("[")
            for ch in held.rstrip("]"):
                self.hand["w" if ch.isupper() else "b"].append(ch.upper())
        self.board = {}
        for i, row in enumerate(placement.split("/")):
            r, f = 7 - i, 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    self.board[(f, r)] = ch
                    f += 1
        self.turn = fields[1]
        self.castling = "" if fields[2] == "-" else fields[2]
        self.ep = None if fields[3] == "-" else parse_sq(fields[3])
        self.half = int(fields[4])
        self.full = int(fields[5])
        # Either form of the field is read; the square is kept only where it is usable.
        if self.ep is not None and not self.ep_legal():
            self.ep = None

    def copy(self):
        p = Pos.__new__(Pos)
        p.game, p.board, p.turn, p.castling = self.game, dict(self.board), self.turn, self.castling
        p.hand = {"w": list(self.hand["w"]), "b": list(self.hand["b"])}
        p.ep, p.half, p.full = self.ep, self.half, self.full
        return p

    def king(self, c):
        k = "K" if c == "w" else "k"
        for sq, p in self.board.items():
            if p == k:
                return sq
        return None

    def attacked(self, sq, by):
        """Whether a piece of `by` attacks `sq`. Ice attacks nothing and blocks sliders."""
        f, r = sq
        pawn_rank = -1 if by == "w" else 1
        for df in (-1, 1):
            p = self.board.get((f + df, r + pawn_rank))
            if p is not None and side(p) == by and p.upper() == "P":
                return True
        for df, dr in KNIGHT:
            p = self.board.get((f + df, r + dr))
            if side(p) == by and p.upper() == "N":
                return True
        for df, dr in KING:
            p = self.board.get((f + df, r + dr))
            if side(p) == by and p.upper() == "K":
                return True
        for df, dr in ROOK + BISHOP:
            g, s = f + df, r + dr
            while on(g, s):
                p = self.board.get((g, s))
                if p is not None:
                    if side(p) == by and p.upper() in ("Q", "R" if (df == 0 or dr == 0) else "B"):
                        return True
                    break
                g, s = g + df, s + dr
        return False

    def can_take(self, c, p):
        """Whether a capturing move of `c` may land on a square holding `p`."""
        if p == ICE:
            return True
        if side(p) == other(c):
            return True
        # Recycle: one's own pieces too, never the king.
        return self.game == "recycle" and side(p) == c and p.upper() != "K"

    def pseudo(self):
        """Moves as (from, to, promotion-or-None, drop-letter-or-None)."""
        c = self.turn
        out = []
        for (f, r), p in list(self.board.items()):
            if side(p) != c:
                continue
            kind = p.upper()
            if kind == "P":
                up = 1 if c == "w" else -1
                last = 7 if c == "w" else 0

                def add(to, frm=(f, r)):
                    if to[1] == last and self.game == "iceage":
                        for q in "qrbn":
                            out.append((frm, to, q, None))
                    else:
                        out.append((frm, to, None, None))

                one = (f, r + up)
                if on(*one) and one not in self.board:
                    add(one)
                    two = (f, r + 2 * up)
                    if r == (1 if c == "w" else 6) and two not in self.board:
                        add(two)
                for df in (-1, 1):
                    to = (f + df, r + up)
                    if not on(*to):
                        continue
                    if to in self.board and self.can_take(c, self.board[to]):
                        add(to)
                    elif to == self.ep and to not in self.board:
                        add(to)
            elif kind in ("N", "K"):
                for df, dr in KNIGHT if kind == "N" else KING:
                    to = (f + df, r + dr)
                    if on(*to) and (to not in self.board or self.can_take(c, self.board[to])):
                        out.append(((f, r), to, None, None))
            else:
                for df, dr in SLIDES[kind]:
                    g, s = f + df, r + dr
                    while on(g, s):
                        if (g, s) in self.board:
                            if self.can_take(c, self.board[(g, s)]):
                                out.append(((f, r), (g, s), None, None))
                            break
                        out.append(((f, r), (g, s), None, None))
                        g, s = g + df, s + dr
        out += self.castles()
        if self.game == "recycle":
            for letter in sorted(set(self.hand[c])):
                for f in range(8):
                    for r in range(8):
                        if (f, r) in self.board:
                            continue
                        if letter == "P" and r in (0, 7):
                            continue
                        out.append(((f, r), (f, r), None, letter))
        return out

    def castles(self):
        c = self.turn
        rank = 0 if c == "w" else 7
        out = []
        king = "K" if c == "w" else "k"
        if self.board.get((4, rank)) != king or self.attacked((4, rank), other(c)):
            return out
        for right, rook_file, empty, path in (("K", 7, [5, 6], [5, 6]), ("Q", 0, [1, 2, 3], [3, 2])):
            if (right if c == "w" else right.lower()) not in self.castling:
                continue
            if self.board.get((rook_file, rank)) != ("R" if c == "w" else "r"):
                continue
            # Empty means no piece and no ice.
            if any((f, rank) in self.board for f in empty):
                continue
            if any(self.attacked((f, rank), other(c)) for f in path):
                continue
            out.append(((4, rank), (path[-1], rank), None, None))
        return out

    def play(self, m):
        frm, to, promo, drop = m
        c = self.turn
        self.half += 1
        ep, self.ep = self.ep, None
        if drop:
            self.hand[c].remove(drop)
            self.board[to] = drop if c == "w" else drop.lower()
        else:
            p = self.board.pop(frm)
            taken = self.board.get(to)
            if taken is not None:
                self.half = 0
                if taken != ICE and side(taken) == c:
                    self.hand[c].append(taken.upper())
            if p.upper() == "P":
                self.half = 0
                if to == ep and taken is None:
                    del self.board[(to[0], frm[1])]
                if abs(to[1] - frm[1]) == 2:
                    skipped = (frm[0], (frm[1] + to[1]) // 2)
                    enemy_pawn = "p" if c == "w" else "P"
                    if any(self.board.get((to[0] + df, to[1])) == enemy_pawn for df in (-1, 1)):
                        self.ep = skipped
            if p.upper() == "K" and abs(to[0] - frm[0]) == 2:
                rook_from = (7 if to[0] == 6 else 0, frm[1])
                rook_to = (5 if to[0] == 6 else 3, frm[1])
                self.board[rook_to] = self.board.pop(rook_from)
            last = 7 if c == "w" else 0
            if p.upper() == "P" and to[1] == last:
                if self.game == "iceage":
                    self.board[to] = promo.upper() if c == "w" else promo
                else:
                    # Recycle: the pawn leaves the game.
                    self.board.pop(to, None)
            else:
                self.board[to] = p
            for sq, right in (((4, 0), "KQ"), ((7, 0), "K"), ((0, 0), "Q"), ((4, 7), "kq"), ((7, 7), "k"), ((0, 7), "q")):
                if sq in (frm, to):
                    for ch in right:
                        self.castling = self.castling.replace(ch, "")
        if c == "b":
            if self.game == "iceage" and self.full % 20 == 0:
                self.ice_age()
            self.full += 1
        self.turn = other(c)
        if self.ep is not None and not self.ep_legal():
            self.ep = None

    def ep_legal(self):
        """Whether an en passant capture is legal here: chessd writes the square only then,
        as it does for chess."""
        c = self.turn
        if self.king(c) is None:
            return False
        for m in self.pseudo():
            frm, to, _, drop = m
            if drop or to != self.ep or to in self.board or frm[0] == to[0]:
                continue
            if self.board[frm].upper() != "P":
                continue
            after = self.copy()
            after.board_only_play(m)
            if not after.attacked(after.king(c), other(c)):
                return True
        return False

    def ice_age(self):
        """GAMES.md: empty squares freeze unless every orthogonal neighbour on the board holds a
        piece; pieces with no piece on any of the eight squares around freeze. Both tests read
        the board before either change; ice is no piece."""
        piece = lambda sq: side(self.board.get(sq)) is not None
        freeze = []
        for f in range(8):
            for r in range(8):
                sq = (f, r)
                if sq in self.board:
                    continue
                near = [(f + df, r + dr) for df, dr in ROOK if on(f + df, r + dr)]
                if not all(piece(n) for n in near):
                    freeze.append(sq)
        for sq, p in self.board.items():
            if p == ICE:
                continue
            near = [(sq[0] + df, sq[1] + dr) for df, dr in KING if on(sq[0] + df, sq[1] + dr)]
            if not any(piece(n) for n in near):
                freeze.append(sq)
        for sq in freeze:
            self.board[sq] = ICE
        # A frozen king or rook takes its rights along: rights need the piece at home.
        for ch, sqs in (("K", [(4, 0), (7, 0)]), ("Q", [(4, 0), (0, 0)]), ("k", [(4, 7), (7, 7)]), ("q", [(4, 7), (0, 7)])):
            if any(self.board.get(sq) == ICE for sq in sqs):
                self.castling = self.castling.replace(ch, "")
        if self.ep is not None and self.board.get(self.ep) == ICE:
            self.ep = None

    def legal(self):
        c = self.turn
        if self.game == "iceage" and (self.king("w") is None or self.king("b") is None):
            return []
        out = []
        for m in self.pseudo():
            after = self.copy()
            after.board_only_play(m)
            k = after.king(c)
            if not after.attacked(k, other(c)):
                out.append(m)
        return out

    def board_only_play(self, m):
        """The move's effect on the board, before any Ice Age: legality is judged there."""
        game = self.game
        full = self.full
        self.full = 1  # no Ice Age on move 1
        self.play(m)
        self.full = full
        self.game = game

    def uci(self, m):
        frm, to, promo, drop = m
        if drop:
            return f"{drop}@{name(to)}"
        return name(frm) + name(to) + (promo or "")

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            row, n = "", 0
            for f in range(8):
                p = self.board.get((f, r))
                if p is None:
                    n += 1
                    continue
                if n:
                    row += str(n)
                    n = 0
                row += p
            rows.append(row + (str(n) if n else ""))
        hand = ""
        if self.game == "recycle":
            order = "QRBNP"
            hand = "[" + "".join(sorted(self.hand["w"], key=order.index))
            hand += "".join(x.lower() for x in sorted(self.hand["b"], key=order.index)) + "]"
        castling = "".join(ch for ch in "KQkq" if ch in self.castling) or "-"
        ep = name(self.ep) if self.ep else "-"
        return f"{'/'.join(rows)}{hand} {self.turn} {castling} {ep} {self.half} {self.full}"

    def end(self, moves):
        """The position's own end: `TERMINATION RESULT`, or None."""
        if self.game == "iceage":
            w, b = self.king("w") is None, self.king("b") is None
            if w and b:
                return "king-frozen 1/2-1/2"
            if w:
                return "king-frozen 0-1"
            if b:
                return "king-frozen 1-0"
        if not moves:
            if self.attacked(self.king(self.turn), other(self.turn)):
                return "checkmate " + ("0-1" if self.turn == "w" else "1-0")
            return "stalemate 1/2-1/2"
        if self.game == "recycle" and self.insufficient():
            return "insufficient-material 1/2-1/2"
        return None

    def insufficient(self):
        """The chess test over board and hands: no queen, rook or pawn anywhere, and either at
        most one minor piece in all, or only bishops, all on one square colour and none in hand
        (a bishop in hand may go to either colour)."""
        held = self.hand["w"] + self.hand["b"]
        on_board = [(sq, p.upper()) for sq, p in self.board.items() if p.upper() != "K"]
        kinds = [k for _, k in on_board] + held
        if any(k in "QRP" for k in kinds):
            return False
        if len(kinds) <= 1:
            return True
        if "N" in kinds or held:
            return False
        colours = {(sq[0] + sq[1]) % 2 for sq, _ in on_board}
        return len(colours) == 1


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


def playouts(game, seed, games, plies):
    """Seeded random games: yields (pos, legal moves, end, move played or None)."""
    rng = random.Random(seed)
    for _ in range(games):
        pos = Pos(START[game], game)
        for ply in range(plies):
            moves = sorted(pos.legal(), key=pos.uci)
            end = pos.end(moves)
            if end or ply == plies - 1:
                yield pos, moves, end, None
                break
            m = rng.choice(moves)
            yield pos, moves, end, m
            pos = pos.copy()
            pos.play(m)


def main():
    cmd, game = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    opt = lambda n, d: args[args.index(n) + 1] if n in args else d
    plies = int(opt("--plies", "200"))
    if cmd == "perft":
        depth = int(args[0])
        fens = [args[i + 1] for i, a in enumerate(args) if a == "--fen"] or [START[game]]
        for i, fen in enumerate(fens):
            print(f"\nid {game}-{i}\nepd {fen}")
            for d in range(1, depth + 1):
                print(f"perft {d} {perft(Pos(fen, game), d)}", flush=True)
    elif cmd == "moves":
        for pos, moves, end, m in playouts(game, int(opt("--seed", "1")), int(opt("--games", "4")), plies):
            played = pos.uci(m) if m else "-"
            print(f"{pos.fen()}\t{' '.join(pos.uci(x) for x in moves)}\t{end or '-'}\t{played}")
    elif cmd == "check":
        depth, chessd, bad, n = int(opt("--depth", "2")), opt("--chessd", "chessd"), 0, 0
        for pos, moves, _, _ in playouts(game, int(opt("--seed", "1")), int(opt("--games", "4")), plies):
            theirs = {}
            for x in moves:
                after = pos.copy()
                after.play(x)
                theirs[pos.uci(x)] = perft(after, depth - 1) if depth > 1 else 1
            fen = pos.fen()
            out = subprocess.run([chessd, "perft", "--variant", game, "--depth", str(depth), "--fen", fen, "--divide"],
                                 capture_output=True, text=True)
            ours = dict((m, int(c)) for m, c in (l.split(": ") for l in out.stdout.splitlines() if ": " in l))
            n += 1
            if ours != theirs:
                bad += 1
                diff = {m: (ours.get(m), theirs.get(m)) for m in set(ours) | set(theirs) if ours.get(m) != theirs.get(m)}
                print(f"{fen}: (chessd, ref) {diff} {out.stderr.strip()}", flush=True)
        print(f"{game}: {n} positions, {bad} differ")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
