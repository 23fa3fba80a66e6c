#!/usr/bin/env python3
"""A misbehaving UCI engine for chessd-bot's tests: it runs a real engine (the first
argument, e.g. /usr/games/stockfish) and passes its conversation through, except for the
fault the second argument names. Faults marked "once" happen in the first process only: the
first process leaves a marker file in $FAKE_ENGINE_STATE, so the engine the bot restarts
behaves.

  garbage      junk before every bestmove: an over-long line, bytes that are not UTF-8,
               malformed option and info lines, random words (the game must go on)
  exit-once    exits at the third `go` (a crash mid-game)
  hang-once    at the third `go`, never answers, not even `stop` (a hung engine)
  slow         on the second and fourth `go`, ignores the time it was given and thinks until
               told `stop`
  lies-once    answers `bestmove (none)` at the third `go`, `bestmove banana` at the fifth
               and an illegal move at the seventh (counted across restarts)
  always-exit  exits at the first `go`, every time
  usi-resign   (a USI engine) answers `bestmove resign` at the third `go`
  usi-win      (a USI engine) answers `bestmove win`, the impasse declaration, to every `go`
"""

import os
import subprocess
import sys
import threading

real, mode = sys.argv[1], sys.argv[2]
state = os.environ.get("FAKE_ENGINE_STATE", "")
marker = os.path.join(state, "misbehaved") if state else ""
counter = os.path.join(state, "go-count") if state else ""
first = not (marker and os.path.exists(marker))
if marker and mode.endswith("-once"):
    # Made and tested in one step: engines started at once (one per game) must not all see
    # no marker and all misbehave.
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        first = True
    except FileExistsError:
        first = False

engine = subprocess.Popen([real], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
out = sys.stdout.buffer
lock = threading.Lock()
gos = 0
swallow = threading.Event()  # set: every bestmove is dropped


def say(data):
    with lock:
        out.write(data)
        out.flush()


def total_gos():
    """`go` commands across processes (for lies-once)."""
    if not counter:
        return gos
    n = int(open(counter).read() or 0) + 1 if os.path.exists(counter) else 1
    with open(counter, "w") as f:
        f.write(str(n))
    return n


def pump():
    for line in iter(engine.stdout.readline, b""):
        if line.startswith(b"bestmove"):
            if swallow.is_set():
                continue
            if mode == "garbage":
                say(b"x" * 100_000 + b"\n")
                say(b"\xff\xfe not utf-8 \x80\n")
                say(b"option name Broken\n")
                say(b"info depth banana score cp\n")
                say(b"%%% the quick brown fox %%%\n")
        say(line)


threading.Thread(target=pump, daemon=True).start()

for raw in sys.stdin.buffer:
    command = raw.strip()
    if command.startswith(b"go"):
        gos += 1
        n = total_gos() if mode == "lies-once" else gos
        if mode == "always-exit" or (mode == "exit-once" and first and gos == 3):
            os._exit(3)
        if mode == "hang-once" and first and gos == 3:
            swallow.set()
        if mode == "slow" and gos in (2, 4):
            # Thinks until told to stop, whatever time it was given.
            command = b"go infinite"
        if mode == "usi-resign" and gos == 3 or mode == "usi-win":
            say(b"bestmove resign\n" if mode == "usi-resign" else b"bestmove win\n")
            continue
        if mode == "lies-once" and n in (3, 5, 7):
            answer = {3: b"bestmove (none)", 5: b"bestmove banana", 7: b"bestmove a1h8"}[n]
            say(answer + b"\n")
            continue
    if command == b"quit":
        engine.stdin.write(b"quit\n")
        break
    if swallow.is_set() and command in (b"stop", b"isready"):
        continue
    engine.stdin.write(command + b"\n")
engine.stdin.close()
engine.wait()
