// The positions between a snapshot's start and its current position, from the server: a
// snapshot lists the moves but not the positions, and the page draws no position from the
// rules, so it replays the game's events (WatchGame after the first event, whose move events
// carry the FEN after each move) up to the snapshot's last event, then closes the stream.

import type { WatchGameResponse } from "./gen/chessd/v1/chessd_pb.js";

/** How long the replay may take before the page gives up on it for now. */
const REPLAY_MS = 15_000;

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
  open: (afterSeq: bigint, signal: AbortSignal) => AsyncIterable<WatchGameResponse>,
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
