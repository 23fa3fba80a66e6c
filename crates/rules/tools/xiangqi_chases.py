"""Builds repetition cycles in which one side (or both) attacks with every move, for
`xiangqi_oracle.py chases`: the search that gives the perpetual-chase rule cases to be judged on.

Everything here is found by search over pyffish's legal moves and FENs (a black box): a cycle
is [a, b, a', b'] played twice from a seed position, a' and b' the reverses of a and b, and it
is kept when each of the attacking side's moves makes a legal capture possible that was not
possible before it (the side taken as if it were to move again). Each kept cycle is tagged with
the features the rule text singles out (attacker and target types, a defended target, a target
that can hit back, checks, the other side attacking too), so that a run can spread its cycles
over them.
"""
import random
import re

import pyffish as sf

V = "xiangqi"
MOVE = re.compile(r"([a-i])(\d+)([a-i])(\d+)$")
RED_HALF = range(1, 6)


def board(fen):
    """{point: letter} of a FEN's placement; points as in moves (`a1` .. `i10`)."""
    out = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, file = 10 - i, 0
        for tok in re.findall(r"\d+|[A-Za-z]", row):
            if tok.isdigit():
                file += int(tok)
            else:
                out[f"{'abcdefghi'[file]}{rank}"] = tok
                file += 1
    return out


def ends(move):
    m = MOVE.match(move)
    return m.group(1) + m.group(2), m.group(3) + m.group(4)


def reverse(move):
    frm, to = ends(move)
    return to + frm


def with_turn(fen, side):
    fields = fen.split()
    fields[1] = side
    return " ".join(fields)


def legal(fen):
    try:
        return sf.legal_moves(V, fen, [])
    except SystemError:
        return []


def captures(fen, side):
    """The legal captures (from, to) `side` would have in `fen` were it to move."""
    fen = with_turn(fen, side)
    pts = board(fen)
    mine = str.isupper if side == "w" else str.islower
    out = set()
    for m in legal(fen):
        frm, to = ends(m)
        if to in pts and not mine(pts[to]):
            out.add((frm, to))
    return out


def targets(fen, side):
    return {to for _, to in captures(fen, side)}


def is_capture(fen, move):
    return ends(move)[1] in board(fen)


def crossed(letter, point):
    rank = int(point[1:])
    return (rank not in RED_HALF) if letter.isupper() else (rank in RED_HALF)


def tag_of(fen, side, target):
    """A short name of the attack on `target` (a point of `fen`, `side` attacking): attacker and
    target letters, and whether the target is defended (the other side can legally take back on
    its point after the capture) or can hit back (take an attacker)."""
    pts = board(fen)
    other = "b" if side == "w" else "w"
    caps = [(f, t) for f, t in captures(fen, side) if t == target]
    attacker = pts[caps[0][0]].upper()
    victim = pts[target].upper()
    tag = f"{attacker}x{victim}"
    if victim == "P":
        tag += "(crossed)" if crossed(pts[target], target) else "(home)"
    taken = sf.get_fen(V, with_turn(fen, side), [caps[0][0] + target])
    if any(ends(m)[1] == target for m in legal(taken)):
        tag += " defended"
    hits = {f for f, _ in caps}
    if any(ends(m)[0] == target and ends(m)[1] in hits for m in legal(with_turn(fen, other))):
        tag += " hits-back"
    return tag


def cycle_lines(fen, rng, per_seed):
    """Up to `per_seed` tagged cycles from `fen`: (tag, line of eight moves)."""
    a_side = fen.split()[1]
    b_side = "b" if a_side == "w" else "w"
    found = {}
    a_moves = [m for m in legal(fen) if not is_capture(fen, m)]
    rng.shuffle(a_moves)
    before_a = targets(fen, a_side)
    for a in a_moves[:24]:
        after_a = sf.get_fen(V, fen, [a])
        new_a = targets(after_a, a_side) - before_a
        if not new_a:
            continue
        b_moves = [m for m in legal(after_a) if not is_capture(after_a, m)]
        # Mostly the attacked piece running away, sometimes anything else.
        running = [m for m in b_moves if ends(m)[0] in new_a]
        others = [m for m in b_moves if ends(m)[0] not in new_a]
        rng.shuffle(others)
        before_b = targets(after_a, b_side)
        for b in running + others[:4]:
            after_b = sf.get_fen(V, after_a, [b])
            ra = reverse(a)
            if ra not in legal(after_b):
                continue
            after_ra = sf.get_fen(V, after_b, [ra])
            new_ra = targets(after_ra, a_side) - targets(after_b, a_side)
            rb = reverse(b)
            if not new_ra or rb not in legal(after_ra):
                continue
            line = [a, b, ra, rb] * 2
            kinds = []
            if ends(b)[0] in new_a and ends(b)[1] in new_ra:
                kinds.append("runs")
            pts_a, pts_ra = board(after_a), board(after_ra)
            t = next(iter(new_ra & {ends(b)[1]} or new_ra))
            if pts_ra[t].upper() == "K" or any(pts_a[x].upper() == "K" for x in new_a):
                kinds.append("check")
            new_b = targets(after_b, b_side) - before_b
            if new_b:
                kinds.append("both")
            try:
                tag = tag_of(after_ra, a_side, t)
            except (SystemError, IndexError, KeyError):
                continue
            key = " ".join([tag] + kinds)
            found.setdefault(key, []).append(line)
    out = [(k, rng.choice(v)) for k, v in found.items()]
    rng.shuffle(out)
    return out[:per_seed]


# Seeds made by hand for the cases GAMES.md singles out, each with room for a chase: a lone
# target, a defended one, a defender that is pinned, same-type pairs (one that can hit back,
# a horse whose leg is blocked), soldiers before and after the river, a general, both sides
# attacking, checks.
HAND = [
    "3k5/9/9/1n7/9/7R1/9/9/9/4K4 w - - 0 1",  # chariot and a lone horse
    "3k5/n1r6/9/1n7/9/7R1/9/9/9/4K4 w - - 0 1",  # the horse defended
    "4k4/9/4r4/1c7/9/9/9/4R4/9/3K5 w - - 0 1",  # a cannon whose defender is pinned on the file
    "3k5/9/9/1r7/9/7R1/9/9/9/4K4 w - - 0 1",  # chariot against chariot
    "3k5/9/9/2n6/2p6/9/6N2/9/9/4K4 w - - 0 1",  # horses, one leg blockable
    "3k5/9/9/1c7/9/9/7C1/9/9/4K4 w - - 0 1",  # cannon against cannon
    "3k5/9/9/9/9/2p6/9/7R1/9/4K4 w - - 0 1",  # a soldier over the river
    "3k5/9/9/2p6/9/9/9/7R1/9/4K4 w - - 0 1",  # a soldier at home
    "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1",  # Black has only a general
    "3k5/9/1r7/9/9/9/9/1R7/9/4K4 w - - 0 1",  # chariots facing: both may attack
    "2bk5/4a4/9/1n7/9/7R1/9/9/4A4/3K1B3 w - - 0 1",  # with advisors and elephants
    "3k5/9/9/1n7/9/2c6/9/4B4/9/3AK4 w - - 0 1",  # elephant and advisor against horse, cannon
    "4k4/9/9/1n7/9/9/9/9/9/R3K4 w - - 0 1",  # a chariot that checks and attacks
    "3k1a3/4a4/4b4/2r6/9/9/2N6/4C4/9/4K4 b - - 0 1",  # Black to move attacks
]


def legal_seed(fen):
    """A FEN pyffish takes, whose side not to move is not in check."""
    if sf.validate_fen(fen, V) != 1:
        return False
    other = "b" if fen.split()[1] == "w" else "w"
    try:
        return not sf.gives_check(V, with_turn(fen, other), []) and bool(legal(fen))
    except SystemError:
        return False


def sparse_seed(rng):
    """A random position of two generals and a few pieces each, on points they may stand on."""
    red_palace = [f + r for f in "def" for r in "123"]
    advisor = ["d1", "f1", "e2", "d3", "f3"]
    elephant = ["c1", "g1", "a3", "e3", "i3", "c5", "g5"]
    soldier = [f + r for f in "acegi" for r in "45"] + [f + str(r) for f in "abcdefghi" for r in range(6, 11)]

    def mirror(p):
        return p[0] + str(11 - int(p[1:]))

    while True:
        pts = {}
        for side in "wb":
            up = side == "w"
            flip = (lambda p: p) if up else mirror
            pts[flip(rng.choice(red_palace))] = "K" if up else "k"
            for letter in rng.sample("RRNNCCAABBPP", k=rng.randrange(1, 5)):
                spots = {"A": advisor, "B": elephant, "P": soldier}.get(letter)
                spots = [flip(p) for p in spots] if spots else [f + str(r) for f in "abcdefghi" for r in range(1, 11)]
                free = [p for p in spots if p not in pts]
                if free:
                    pts[rng.choice(free)] = letter if up else letter.lower()
        rows = []
        for rank in range(10, 0, -1):
            row, gap = "", 0
            for f in "abcdefghi":
                if f + str(rank) in pts:
                    row += (str(gap) if gap else "") + pts[f + str(rank)]
                    gap = 0
                else:
                    gap += 1
            rows.append(row + (str(gap) if gap else ""))
        fen = "/".join(rows) + f" {rng.choice('wb')} - - 0 1"
        if legal_seed(fen):
            return fen


def playout_seed(rng, start):
    fen = start
    for _ in range(rng.randrange(10, 80)):
        moves = legal(fen)
        if not moves:
            break
        fen = sf.get_fen(V, fen, [rng.choice(moves)])
    return fen


def seeds(rng, start):
    """Hand-made seeds first, then sparse and playout seeds in turn, without end."""
    yield from HAND
    while True:
        yield sparse_seed(rng)
        yield sparse_seed(rng)
        yield playout_seed(rng, start)


def cycles(rng, start, per_seed=3):
    """(seed FEN, tag, line) without end; the hand-made seeds give more each."""
    for fen in seeds(rng, start):
        n = 4 * per_seed if fen in HAND else per_seed
        for tag, line in cycle_lines(fen, random.Random(rng.random()), n):
            yield fen, tag, line
