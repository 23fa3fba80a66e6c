#!/usr/bin/env python3
"""Fairy-Stockfish as the oracle of the xiangqi family (test tooling only: chessd never links or
ships it; pyffish is GPL and used here as a black box).

  tools/xiangqi_oracle.py check --seed N --games G [--plies P] [--bias] [--chessd PATH]
  tools/xiangqi_oracle.py cycles --seed N --count K [--chessd PATH]
  tools/xiangqi_oracle.py quiet --seed N --games G [--chessd PATH]
  tools/xiangqi_oracle.py chases --seed N --count K [--per-tag T] [--tags] [--chessd PATH]
  tools/xiangqi_oracle.py wxf --seed N --games G [--plies P] [--fen FEN] [--chessd PATH]
  tools/xiangqi_oracle.py perft DEPTH --fen FEN [--id NAME]    # suite lines from `go perft`
  tools/xiangqi_oracle.py pick --seed N --count K              # busy middlegames from playouts

`check` plays G seeded random games (pyffish's legal moves; `--bias` prefers captures and
checks, which reaches mates and stalemates) and at every ply compares chessd's legal-move set,
FEN and board-decided end with pyffish's (`legal_moves`, `get_fen`, `game_result` when no move
is left, `has_insufficient_material`). chessd answers through `examples/xiangqi_lines`
(`--chessd PATH`, default $CARGO_TARGET_DIR or target, release build). It prints every
difference and a summary line, and exits 1 if there was a difference.
`cycles` tests the history's rules (perpetual check, perpetual chase, plain repetition) as a
black box: from positions of seeded playouts it has each side play a move and its reverse
twice over (the third occurrence), and compares the game record's end with pyffish's
`is_optional_game_end` after those eight plies. It prints every difference and a tally of the
verdicts, and exits 1 if there was a difference.
`quiet` plays G seeded games that avoid captures and often check, so they run into the
no-capture rule (with its check adjustment) and repetitions, and compares at every ply the game
record's end (`w`, `b` or `draw`) with pyffish's `is_optional_game_end` and board ends.
`chases` tests the perpetual-chase rule, which random cycles almost never reach: from
hand-made seeds (a lone, a defended and a pin-defended target, same-type pairs, soldiers
before and after the river, a general, both sides attacking, checks), random sparse positions
and playout positions, `xiangqi_chases.py` searches pyffish's legal moves for cycles [a, b, a',
b'] (a' and b' the reverses) in which each of the starting side's moves makes a new capture
possible, tags each by attacker and target type, defended, hits back, the target running,
checks and both sides attacking, takes at most T of a tag (default K/20 + 1), and compares
chessd's verdict after the cycle twice over with `is_optional_game_end`. It prints every
difference, the tally of chessd's rule and verdict against FSF's (A is the side that starts
the cycle), with `--tags` the count of each tag, and exits 1 if there was a difference.
`wxf` plays G seeded random games (from FEN, default the start) and at every ply compares chessd's WXF text of every legal
move with pyffish's (`get_san` with `NOTATION_XIANGQI_WXF`), after writing pyffish's `=` as
`.` and its `R+`/`R-` as `+R`/`-R` (spellings, README: the xiangqi section). Where pyffish
writes a tandem piece's file and chessd `+`/`-`, it counts a documented rule difference; every
other mismatch is a difference. It also has chessd read pyffish's own text, which must give
the same move. It prints every difference and a summary, and exits 1 if there was one.
Needs: pip install pyffish; /usr/games/fairy-stockfish (or $FSF) for `perft`.
"""
import argparse
import os
import random
import subprocess
import sys

import pyffish as sf

import xiangqi_chases

FSF = os.environ.get("FSF", "/usr/games/fairy-stockfish")
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


class Chessd:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, fen, move=None):
        self.p.stdin.write(fen + ("\t" + move if move else "") + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline().rstrip("\n")
        if line.startswith("error: "):
            return None, None, line
        moves, fen, end = line.split("\t")
        return set(moves.split()), fen, end


def fsf_end(fen):
    """The board-decided end as chessd names it: `w checkmate`, `b stalemate-loss`, `draw
    insufficient-material` or `-`."""
    turn = fen.split()[1]
    other = "b" if turn == "w" else "w"
    if not sf.legal_moves("xiangqi", fen, []):
        # FSF scores mate and stalemate alike (a loss for the side to move); the check tells
        # them apart.
        assert sf.game_result("xiangqi", fen, []) < 0
        return f"{other} {'checkmate' if sf.gives_check('xiangqi', fen, []) else 'stalemate-loss'}"
    if all(sf.has_insufficient_material("xiangqi", fen, [])):
        return "draw insufficient-material"
    return "-"


def pieces(fen):
    return sum(c.isalpha() for c in fen.split()[0])


def is_capture(fen, move):
    return pieces(sf.get_fen("xiangqi", fen, [move])) < pieces(fen)


def check(args):
    chessd = Chessd(args.chessd)
    rng = random.Random(args.seed)
    plies = diffs = ends = 0
    for game in range(args.games):
        fen = START
        for ply in range(args.plies):
            theirs = set(sf.legal_moves("xiangqi", fen, []))
            ours, our_fen, our_end = chessd.ask(fen)
            plies += 1
            if ours is None:
                print(f"game {game} ply {ply}: chessd refused {fen}: {our_end}")
                diffs += 1
                break
            if ours != theirs or our_fen != fen or our_end != fsf_end(fen):
                diffs += 1
                print(f"game {game} ply {ply} {fen}: ours only {sorted(ours - theirs)}, "
                      f"theirs only {sorted(theirs - ours)}, fen {our_fen}, end {our_end} vs {fsf_end(fen)}")
            if not theirs or our_end != "-":
                ends += 1
                break
            moves = sorted(theirs)
            move = rng.choice(moves)
            if args.bias:
                forcing = [m for m in moves if sf.gives_check("xiangqi", fen, [m]) or is_capture(fen, m)]
                if forcing and rng.random() < 0.7:
                    move = rng.choice(forcing)
            fen = sf.get_fen("xiangqi", fen, [move])
    print(f"{args.games} games, {plies} positions compared, {ends} board-decided ends, {diffs} differences")
    return 1 if diffs else 0


def cycles(args):
    chessd = Chessd(args.chessd)
    rng = random.Random(args.seed)
    tested = diffs = 0
    tally = {}
    rules = {}
    while tested < args.count:
        fen = START
        for _ in range(rng.randrange(10, 80)):
            moves = sf.legal_moves("xiangqi", fen, [])
            if not moves:
                break
            fen = sf.get_fen("xiangqi", fen, [rng.choice(moves)])
        # A quiet move for each side, then both taken back, twice over.
        quiet = [m for m in sf.legal_moves("xiangqi", fen, []) if not is_capture(fen, m)]
        if not quiet:
            continue
        a = forcing_choice(rng, fen, quiet)
        after = sf.get_fen("xiangqi", fen, [a])
        quiet = [m for m in sf.legal_moves("xiangqi", after, []) if not is_capture(after, m)]
        if not quiet:
            continue
        b = forcing_choice(rng, after, quiet)
        line = [a, b, reverse(a), reverse(b)] * 2
        # Every intermediate position must be legal and undecided: replay and check.
        if not all(m in sf.legal_moves("xiangqi", sf.get_fen("xiangqi", fen, line[:k]), []) for k, m in enumerate(line)):
            continue
        if any(sf.is_optional_game_end("xiangqi", fen, line[:k])[0] for k in range(1, 8)):
            continue
        over, result = sf.is_optional_game_end("xiangqi", fen, line)
        if not over:
            continue
        # FSF's result is for the side to move after eight plies: the side that started.
        turn = fen.split()[1]
        other = "b" if turn == "w" else "w"
        theirs = "draw repetition" if result == 0 else (f"{other} repetition" if result < 0 else f"{turn} repetition")
        _, _, verdict = chessd.ask(fen, " ".join(line))
        # FSF gives only a score; chessd also names the rule that decided, which the tally
        # counts (how many cycles the check rule decided, how many the chase rule).
        winner, _, rule = verdict.partition(" ")
        rules[rule] = rules.get(rule, 0) + 1
        ours = f"{winner} repetition" if rule in ("perpetual-check", "perpetual-chase", "repetition") else verdict
        tested += 1
        tally[theirs.replace(turn, "starter").replace(other, "other") if result else theirs] = tally.get(
            theirs.replace(turn, "starter").replace(other, "other") if result else theirs, 0) + 1
        if ours != theirs:
            diffs += 1
            print(f"{fen} moves {' '.join(line)}: ours {ours}, theirs {theirs}")
    print(f"{tested} cycles compared, verdicts {tally}, chessd's rules {rules}, {diffs} differences")
    return 1 if diffs else 0


def chases(args):
    chessd = Chessd(args.chessd)
    rng = random.Random(args.seed)
    per_tag = args.per_tag or args.count // 20 + 1
    tested = diffs = 0
    tally, tags = {}, {}
    for fen, tag, line in xiangqi_chases.cycles(rng, START):
        if tested >= args.count:
            break
        if tags.get(tag, 0) >= per_tag:
            continue
        if any(sf.is_optional_game_end("xiangqi", fen, line[:k])[0] for k in range(1, 8)):
            continue
        over, result = sf.is_optional_game_end("xiangqi", fen, line)
        if not over:
            continue
        # Verdicts as seen by the side that starts the cycle (the attacker A): FSF's score is for
        # the side to move after eight plies, which is A.
        turn = fen.split()[1]
        theirs = "draw" if result == 0 else ("A loses" if result < 0 else "B loses")
        _, _, verdict = chessd.ask(fen, " ".join(line))
        if verdict.startswith("error: "):
            print(f"{fen} moves {' '.join(line)}: chessd refused: {verdict}")
            diffs += 1
            continue
        winner, _, rule = verdict.partition(" ")
        ours = "draw" if winner == "draw" else ("B loses" if winner == turn else "A loses")
        tested += 1
        tags[tag] = tags.get(tag, 0) + 1
        key = f"chessd {rule} {ours} / FSF {theirs}"
        tally[key] = tally.get(key, 0) + 1
        if ours != theirs:
            diffs += 1
            print(f"{fen} moves {' '.join(line)} [{tag}]: ours {verdict} ({ours}), theirs {theirs}")
    for key, n in sorted(tally.items()):
        print(f"  {n:4} {key}")
    if args.tags:
        for tag, n in sorted(tags.items()):
            print(f"  {n:4} {tag}")
    print(f"{tested} cycles compared, {len(tags)} kinds, {diffs} differences")
    return 1 if diffs else 0


def threatens(fen, move):
    """Whether the piece `move` moves could capture from where it lands, were its side to move
    again (a candidate chase)."""
    after = sf.get_fen("xiangqi", fen, [move])
    if sf.gives_check("xiangqi", after, []):
        return False
    fields = after.split()
    fields[1] = "b" if fields[1] == "w" else "w"
    again = " ".join(fields)
    to = move[2:] if move[2].isalpha() else move[3:]
    try:
        return any(m.startswith(to) and is_capture(again, m) for m in sf.legal_moves("xiangqi", again, []))
    except SystemError:
        return False


def forcing_choice(rng, fen, moves):
    """A check a third of the time, a threat a third of the time, when there is one."""
    roll = rng.random()
    if roll < 1 / 3:
        checks = [m for m in moves if sf.gives_check("xiangqi", sf.get_fen("xiangqi", fen, [m]), [])]
        if checks:
            return rng.choice(checks)
    elif roll < 2 / 3:
        threats = [m for m in moves if threatens(fen, m)]
        if threats:
            return rng.choice(threats)
    return rng.choice(moves)


def quiet(args):
    chessd = Chessd(args.chessd)
    rng = random.Random(args.seed)
    diffs = 0
    ends = {}
    plies = 0
    for game in range(args.games):
        fen = START
        # A few random opening moves with captures, then quiet play.
        line = []
        for _ in range(rng.randrange(20, 60)):
            moves = sf.legal_moves("xiangqi", START, line)
            if not moves:
                break
            line.append(rng.choice(moves))
        fen = sf.get_fen("xiangqi", START, line)
        line = []
        while True:
            now = sf.get_fen("xiangqi", fen, line)
            moves = sf.legal_moves("xiangqi", now, [])
            over, result = sf.is_optional_game_end("xiangqi", fen, line)
            if not moves:
                theirs = fsf_end(now).split()[0]
            elif over:
                turn = now.split()[1]
                other = "b" if turn == "w" else "w"
                theirs = "draw" if result == 0 else (other if result < 0 else turn)
            else:
                theirs = "-"
            _, _, ours = chessd.ask(fen, " ".join(line)) if line else chessd.ask(fen)
            plies += 1
            if ours.split()[0] != theirs:
                diffs += 1
                print(f"game {game} {fen} moves {' '.join(line)}: ours {ours}, theirs {theirs}")
                break
            if theirs != "-":
                # A no-capture draw past 100 plies is one the check adjustment delayed.
                key = ours + (" past 100 plies" if int(now.split()[4]) > 100 else "")
                ends[key] = ends.get(key, 0) + 1
                break
            quiet_moves = [m for m in moves if not is_capture(now, m)] or moves
            line.append(forcing_choice(rng, now, quiet_moves) if rng.random() < 0.5 else rng.choice(quiet_moves))
    print(f"{args.games} games, {plies} plies compared, ends {ends}, {diffs} differences")
    return 1 if diffs else 0


def spelled(text):
    """pyffish's WXF in chessd's spelling: `.` for `=`, `+R` for `R+`."""
    text = text.replace("=", ".")
    if text[0].isalpha() and text[1] in "+-":
        text = text[1] + text[0] + text[2:]
    return text


def tandem_file(ours, theirs):
    """chessd names a tandem piece front or rear where pyffish gives its file."""
    return ours[0] in "+-" and ours[1] == theirs[0] and theirs[1].isdigit() and ours[2:] == theirs[2:]


def wxf(args):
    chessd = Chessd(args.chessd)
    rng = random.Random(args.seed)
    positions = moves = diffs = documented = 0
    for game in range(args.games):
        fen = args.fen
        for ply in range(args.plies):
            legal = sorted(sf.legal_moves("xiangqi", fen, []))
            if not legal:
                break
            chessd.p.stdin.write(f"wxf\t{fen}\n")
            chessd.p.stdin.flush()
            line = chessd.p.stdout.readline().rstrip("\n")
            positions += 1
            if line.startswith("error: "):
                diffs += 1
                print(f"game {game} ply {ply} {fen}: {line}")
                break
            ours = dict(pair.split(":") for pair in line.split())
            raw = [sf.get_san("xiangqi", fen, m, False, sf.NOTATION_XIANGQI_WXF) for m in legal]
            chessd.p.stdin.write(f"read\t{fen}\t{' '.join(raw)}\n")
            chessd.p.stdin.flush()
            read = chessd.p.stdout.readline().split()
            for m, text, back in zip(legal, raw, read):
                moves += 1
                theirs = spelled(text)
                mine = ours.get(m)
                if back != m:
                    diffs += 1
                    print(f"game {game} ply {ply} {fen}: {m}: pyffish's {text} reads as {back}")
                elif mine == theirs:
                    continue
                elif mine and tandem_file(mine, theirs):
                    documented += 1
                else:
                    diffs += 1
                    print(f"game {game} ply {ply} {fen}: {m}: ours {mine}, theirs {text}")
            fen = sf.get_fen("xiangqi", fen, [rng.choice(legal)])
    print(f"{args.games} games, {positions} positions, {moves} moves compared, "
          f"{documented} tandem pieces named by file in pyffish (documented), {diffs} differences")
    return 1 if diffs else 0


def reverse(move):
    """`h3e3` -> `e3h3`, `b10c8` -> `c8b10`."""
    for i in range(2, len(move) - 1):
        head, tail = move[:i], move[i:]
        if head[1:].isdigit() and tail[1:].isdigit():
            return tail + head
    return None


def fsf_perft(fen, depth):
    p = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out, _ = p.communicate(f"uci\nsetoption name UCI_Variant value xiangqi\nposition fen {fen}\ngo perft {depth}\nquit\n")
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError(out)


def perft(args):
    if args.id:
        print(f"id {args.id}")
    print(f"epd {args.fen}")
    for d in range(1, args.depth + 1):
        print(f"perft {d} {fsf_perft(args.fen, d)}")


def pick(args):
    rng = random.Random(args.seed)
    found = []
    while len(found) < args.count:
        fen = START
        for _ in range(rng.randrange(20, 60)):
            moves = sf.legal_moves("xiangqi", fen, [])
            if not moves:
                break
            fen = sf.get_fen("xiangqi", fen, [rng.choice(moves)])
        else:
            found.append((len(sf.legal_moves("xiangqi", fen, [])), fen))
    for n, fen in sorted(found, reverse=True):
        print(n, fen)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--games", type=int, default=20)
    c.add_argument("--plies", type=int, default=300)
    c.add_argument("--bias", action="store_true")
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    c.add_argument("--chessd", default=os.path.join(target, "release", "examples", "xiangqi_lines"))
    p = sub.add_parser("perft")
    p.add_argument("depth", type=int)
    p.add_argument("--fen", required=True)
    p.add_argument("--id")
    y = sub.add_parser("cycles")
    y.add_argument("--seed", type=int, default=1)
    y.add_argument("--count", type=int, default=100)
    y.add_argument("--chessd", default=os.path.join(target, "release", "examples", "xiangqi_lines"))
    q = sub.add_parser("quiet")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--games", type=int, default=10)
    q.add_argument("--chessd", default=os.path.join(target, "release", "examples", "xiangqi_lines"))
    h = sub.add_parser("chases")
    h.add_argument("--seed", type=int, default=1)
    h.add_argument("--count", type=int, default=200)
    h.add_argument("--per-tag", type=int, default=0)
    h.add_argument("--tags", action="store_true")
    h.add_argument("--chessd", default=os.path.join(target, "release", "examples", "xiangqi_lines"))
    w = sub.add_parser("wxf")
    w.add_argument("--seed", type=int, default=1)
    w.add_argument("--games", type=int, default=10)
    w.add_argument("--plies", type=int, default=200)
    w.add_argument("--fen", default=START)
    w.add_argument("--chessd", default=os.path.join(target, "release", "examples", "xiangqi_lines"))
    k = sub.add_parser("pick")
    k.add_argument("--seed", type=int, default=1)
    k.add_argument("--count", type=int, default=6)
    args = ap.parse_args()
    sys.exit({"check": check, "cycles": cycles, "quiet": quiet, "chases": chases, "perft": perft, "pick": pick, "wxf": wxf}[args.cmd](args) or 0)


if __name__ == "__main__":
    main()
