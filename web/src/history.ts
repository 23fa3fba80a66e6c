// The positions between a snapshot's start and its current position, from the server: a
// snapshot lists the moves but not the positions, and the page draws no position from the
// rules, so it replays the game's events (WatchGame after the first event, whose move events
// carry the FEN after each move) up to the snapshot's last event, then closes the stream.

import { sleep } from "./dom.js";
import type { WatchGameResponse } from "./gen/chessd/v1/chessd_pb.js";
import { type GameState, addPositions } from "./state.js";

/** How long the replay may take before the page gives up on it for now. */
const REPLAY_MS = 15_000;

/** How often, and how long apart, the replay of a snapshot's positions is tried. */
const HISTORY_ATTEMPTS = 4;
const HISTORY_RETRY_MS = 1000;

type Open = (afterSeq: bigint, signal: AbortSignal) => AsyncIterable<WatchGameResponse>;

export interface FoundPosition {
  ply: number;
  uci: string;
  fen: string;
}

/**
 * The FEN after every move of the events after the first up to `lastSeq`, read from `open`
 * (WatchGame, with the seat's token where there is one). A replay starts after an event, so the
 * first event's move (when it was one) is never among them. Throws what the stream throws.
 */
export async function replayPositions(
  open: Open,
  lastSeq: bigint,
  signal: AbortSignal,
): Promise<FoundPosition[]> {
  const found: FoundPosition[] = [];
  if (lastSeq < 2n) return found;
  const stream = new AbortController();
  const stop = () => stream.abort();
  signal.addEventListener("abort", stop);
  const timer = setTimeout(stop, REPLAY_MS);
  try {
    for await (const msg of open(1n, stream.signal)) {
      const ev = msg.event;
      if (ev.case === "movePlayed" && ev.value.move) {
        found.push({ ply: ev.value.move.ply, uci: ev.value.move.uci, fen: ev.value.fen });
      }
      if (msg.seq >= lastSeq) break;
    }
  } catch (e) {
    // Closed by us once caught up: whatever arrived is kept.
    if (!stream.signal.aborted || signal.aborted) throw e;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
    stream.abort();
  }
  return found;
}

/**
 * Fills the positions `s` lacks from replays of its events, tried a few times: "done" when
 * every ply has one (the first move's may still be the page's sketch, see state.ts), "failed"
 * when some are still missing, "stale" when the view moved on to another state meanwhile
 * (`isCurrent` false) or closed.
 */
export async function fillPositions(
  s: GameState,
  open: Open,
  signal: AbortSignal,
  isCurrent: () => boolean,
): Promise<"done" | "failed" | "stale"> {
  const missing = () => s.positions.some((p) => p === null);
  const lastSeq = s.lastSeq;
  for (let attempt = 1; attempt <= HISTORY_ATTEMPTS && !signal.aborted; attempt++) {
    try {
      addPositions(s, await replayPositions(open, lastSeq, signal));
      if (!missing()) break;
    } catch {
      // Tried again; the board says so if it never comes.
    }
    if (!isCurrent()) return "stale";
    if (attempt < HISTORY_ATTEMPTS) await sleep(HISTORY_RETRY_MS * attempt, signal);
  }
  if (!isCurrent() || signal.aborted) return "stale";
  return missing() ? "failed" : "done";
}
