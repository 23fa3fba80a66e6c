// Following a game's stream for as long as it lasts: WatchGame resumed after the last seq
// seen when the connection drops (with backoff), reopened when it goes silent, restarted from
// a snapshot when the events and the state no longer fit, stopped for good when the game is
// missing or private.

import { Code, ConnectError } from "@connectrpc/connect";

import { sleep } from "./dom.js";
import type { WatchGameResponse } from "./gen/chessd/v1/chessd_pb.js";
import { refusal, refusalText } from "./refusal.js";
import { Resync } from "./state.js";

/** Reconnect backoff bounds for a dropped stream. */
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 8000;
/**
 * A stream silent this long is presumed dead (a network that drops packets without closing
 * the connection) and reopened; chessd sends a heartbeat every 5 s by default.
 */
const STALL_MS = 30_000;

/** What the stream is doing, for the connection line. */
export type Connection =
  | { kind: "live" }
  | { kind: "reconnecting" }
  | { kind: "over" }
  | { kind: "missing" }
  | { kind: "private"; text: string };

export interface Follower {
  /** Opens the stream after `afterSeq` (0: from a snapshot). */
  open(afterSeq: bigint, signal: AbortSignal): AsyncIterable<WatchGameResponse>;
  /** The seq to resume after (0n for a snapshot), or null once the game is over. */
  resumeAfter(): bigint | null;
  /** One message; may throw `Resync`. */
  message(msg: WatchGameResponse): void;
  /** Forget the state: the next stream starts from a snapshot. */
  restart(): void;
  connection(c: Connection): void;
}

/** Follows the game until it is over, missing or private, or `signal` aborts. */
export async function follow(f: Follower, signal: AbortSignal): Promise<void> {
  let backoff = RETRY_MIN_MS;
  let live = false;
  for (;;) {
    const after = f.resumeAfter();
    if (signal.aborted) return;
    if (after === null) break;
    const streamAbort = new AbortController();
    const stop = () => streamAbort.abort();
    signal.addEventListener("abort", stop);
    let stall = setTimeout(stop, STALL_MS);
    try {
      for await (const msg of f.open(after, streamAbort.signal)) {
        clearTimeout(stall);
        stall = setTimeout(stop, STALL_MS);
        if (!live) {
          live = true;
          f.connection({ kind: "live" });
        }
        backoff = RETRY_MIN_MS;
        f.message(msg);
      }
    } catch (e) {
      if (signal.aborted) return;
      const err = ConnectError.from(e);
      if (e instanceof Resync || err.code === Code.OutOfRange) {
        // Our place in the stream is unusable (a gap, or a server that lost the game's
        // history): start over from a snapshot.
        f.restart();
      } else if (err.code === Code.NotFound || err.code === Code.InvalidArgument) {
        f.connection({ kind: "missing" });
        return;
      } else if (err.code === Code.Unauthenticated || err.code === Code.PermissionDenied) {
        // --private-watch: only the game's seats (or a backend) may watch.
        f.connection({ kind: "private", text: refusalText(refusal(e)) });
        return;
      }
    } finally {
      clearTimeout(stall);
      signal.removeEventListener("abort", stop);
    }
    if (f.resumeAfter() === null) break;
    live = false;
    f.connection({ kind: "reconnecting" });
    await sleep(backoff, signal);
    backoff = Math.min(backoff * 2, RETRY_MAX_MS);
  }
  if (!signal.aborted) f.connection({ kind: "over" });
}
