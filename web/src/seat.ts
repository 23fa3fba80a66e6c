// A player's seat: the token from the seat link and every call made with it.
//
// A seat link is `/#/game/<id>?seat=<token>`. The token sits in the URL fragment, which a
// browser never sends to a server, so it reaches no access log; the page reads it, keeps it in
// this tab's sessionStorage (a reload keeps the seat, another tab or a closed one does not) and
// replaces the address with `#/game/<id>`, so it stays out of the tab's history and of a
// copied address. It travels only as `authorization: Bearer` metadata on this game's calls,
// made here: the token is a private field of `Seat`, never written to the DOM or a log.

import type { CallOptions } from "@connectrpc/connect";

import { client } from "./api.js";
import { sleep } from "./dom.js";
import {
  Color,
  type DrawClaim,
  type Game,
  GameView,
  type SubmitMoveResponse,
  type WatchGameResponse,
} from "./gen/chessd/v1/chessd_pb.js";
import { type Refusal, refusal, retryAfterMs, retryable } from "./refusal.js";

/** chessd's seat tokens: 128 bits as 32 lowercase hex digits. */
const TOKEN = /^[0-9a-f]{32}$/;

/** How long one attempt may take before it counts as lost. */
const ATTEMPT_MS = 10_000;
/** How long a move is retried for when no answer comes. */
const RETRY_FOR_MS = 30_000;
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 2_000;
/** How long to wait before asking again for a game a lagging replica did not have yet. */
const LEGAL_RETRY_MS = 200;
const LEGAL_ATTEMPTS = 25;

const storageKey = (gameId: string) => `chessd.seat.${gameId}`;

export type SeatLink = { kind: "none" } | { kind: "seat"; token: string } | { kind: "malformed" };

/**
 * The seat for game `gameId`: the one in the fragment's query (`?seat=`), else the one this tab
 * kept. A token in the fragment is taken out of the address at once.
 */
export function takeSeat(gameId: string, query: string): SeatLink {
  const fromLink = new URLSearchParams(query).get("seat");
  if (fromLink !== null) {
    history.replaceState(history.state, "", `#/game/${gameId}`);
    if (!TOKEN.test(fromLink)) return { kind: "malformed" };
    sessionStorage.setItem(storageKey(gameId), fromLink);
  }
  const kept = sessionStorage.getItem(storageKey(gameId));
  return kept !== null && TOKEN.test(kept) ? { kind: "seat", token: kept } : { kind: "none" };
}

/** Forgets this tab's seat for `gameId` (the server refused the token). */
export function forgetSeat(gameId: string): void {
  sessionStorage.removeItem(storageKey(gameId));
}

/** A fresh idempotency key: 128 random bits in hex (getRandomValues needs no secure context). */
function requestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Seat {
  readonly gameId: string;
  readonly #token: string;

  constructor(gameId: string, token: string) {
    this.gameId = gameId;
    this.#token = token;
  }

  #options(signal: AbortSignal, timeoutMs?: number): CallOptions {
    return { headers: { authorization: `Bearer ${this.#token}` }, signal, timeoutMs };
  }

  /**
   * Calls `call` until it answers, while the failure is one a retry may cure, for at most
   * `RETRY_FOR_MS`; `onRetry` hears of each failure that is retried. Throws the last failure.
   */
  async #retrying<T>(
    call: (options: CallOptions) => Promise<T>,
    signal: AbortSignal,
    onRetry?: (r: Refusal) => void,
  ): Promise<T> {
    const until = Date.now() + RETRY_FOR_MS;
    let backoff = BACKOFF_MIN_MS;
    for (;;) {
      try {
        return await call(this.#options(signal, ATTEMPT_MS));
      } catch (e) {
        const r = refusal(e);
        if (signal.aborted || !retryable(r) || Date.now() + backoff > until) throw e;
        onRetry?.(r);
        await sleep(retryAfterMs(r) ?? backoff, signal);
        backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
      }
    }
  }

  /** The game's events, as WatchGame with this seat's token (needed under --private-watch). */
  watch(afterSeq: bigint, signal: AbortSignal): AsyncIterable<WatchGameResponse> {
    return client.watchGame({ gameId: this.gameId, afterSeq }, this.#options(signal));
  }

  /** The game now (for its legal moves: the stream's move events do not carry them). */
  async game(signal: AbortSignal): Promise<Game | null> {
    const r = await this.#retrying((o) => client.getGame({ gameId: this.gameId }, o), signal);
    return r.game ?? null;
  }

  /**
   * The game once the server has it at ply `atLeast()` or later (a replica may lag behind the
   * stream another one feeds: it is asked again, a few times), or null when it never caught up
   * or the view closed. Throws a refusal.
   */
  async gameAtLeast(atLeast: () => number, signal: AbortSignal): Promise<Game | null> {
    for (let attempt = 1; attempt <= LEGAL_ATTEMPTS && !signal.aborted; attempt++) {
      const g = await this.game(signal);
      if (g && g.ply >= atLeast()) return g;
      await sleep(LEGAL_RETRY_MS, signal);
    }
    return null;
  }

  /**
   * Which side this seat plays: GetGame's `seat`, the colour the server found the token holding
   * in this game. Null when it holds none (a token of another game, or one the server does not
   * know: a public read names no side rather than refusing it).
   */
  async color(signal: AbortSignal): Promise<Color | null> {
    const r = await this.#retrying((o) => client.getGame({ gameId: this.gameId }, o), signal);
    return r.seat === Color.WHITE || r.seat === Color.BLACK ? r.seat : null;
  }

  /**
   * Plays `move` (UCI or SAN) if the game is still at `expectedPly`. Lost answers are retried
   * with the same request id, which the server answers with the first answer: never two moves.
   */
  submitMove(
    move: string,
    expectedPly: number,
    signal: AbortSignal,
    onRetry?: (r: Refusal) => void,
  ): Promise<SubmitMoveResponse> {
    const request = {
      gameId: this.gameId,
      move,
      expectedPly,
      requestId: requestId(),
      view: GameView.BASIC,
    };
    return this.#retrying((o) => client.submitMove(request, o), signal, onRetry);
  }

  // The other actions are sent once: each is harmless to repeat by hand (a second resignation
  // or claim finds the game over, a second offer is a no-op), but not to repeat blindly (an
  // offer retried after the opponent's offer arrived would accept it).
  resign(signal: AbortSignal) {
    return client.resign({ gameId: this.gameId }, this.#options(signal, ATTEMPT_MS));
  }
  offerDraw(signal: AbortSignal) {
    return client.offerDraw({ gameId: this.gameId }, this.#options(signal, ATTEMPT_MS));
  }
  respondToDraw(accept: boolean, signal: AbortSignal) {
    return client.respondToDraw({ gameId: this.gameId, accept }, this.#options(signal, ATTEMPT_MS));
  }
  claimDraw(claim: DrawClaim, signal: AbortSignal) {
    return client.claimDraw({ gameId: this.gameId, claim }, this.#options(signal, ATTEMPT_MS));
  }
  abort(signal: AbortSignal) {
    return client.abort({ gameId: this.gameId }, this.#options(signal, ATTEMPT_MS));
  }
  /** Gives the opponent the server's default amount (15 seconds). */
  addTime(signal: AbortSignal) {
    return client.addTime({ gameId: this.gameId }, this.#options(signal, ATTEMPT_MS));
  }
  proposeTakeback(signal: AbortSignal) {
    return client.proposeTakeback({ gameId: this.gameId }, this.#options(signal, ATTEMPT_MS));
  }
  respondToTakeback(accept: boolean, signal: AbortSignal) {
    return client.respondToTakeback(
      { gameId: this.gameId, accept },
      this.#options(signal, ATTEMPT_MS),
    );
  }
  withdrawTakeback(signal: AbortSignal) {
    return client.withdrawTakeback({ gameId: this.gameId }, this.#options(signal, ATTEMPT_MS));
  }
  /** Places this seat's army behind the screen (Screen Chess); final with `commit`. */
  submitSetup(placement: string, commit: boolean, signal: AbortSignal) {
    return client.submitSetup(
      { gameId: this.gameId, placement, commit },
      this.#options(signal, ATTEMPT_MS),
    );
  }
  /**
   * The seat's commitment or (`reveal`) its secret, in a game with the players' entropy: retried
   * like a move, since the server answers the same value again as the first time.
   */
  submitEntropy(commitment: string, reveal: string, signal: AbortSignal) {
    return this.#retrying(
      (o) => client.submitEntropy({ gameId: this.gameId, commitment, reveal }, o),
      signal,
    );
  }
  claimVictory(draw: boolean, signal: AbortSignal) {
    return client.claimVictory({ gameId: this.gameId, draw }, this.#options(signal, ATTEMPT_MS));
  }
}
