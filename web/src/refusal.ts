// What a failed call means to a player: the server's ErrorInfo reason, turned into a sentence
// that says what happened and what to do, and whether trying again may help.

import { Code, ConnectError } from "@connectrpc/connect";

import { ErrorInfoSchema } from "./gen/google/rpc/error_info_pb.js";

export interface Refusal {
  /** ErrorInfo's reason ("ILLEGAL_MOVE"), or "" when no server answered. */
  reason: string;
  metadata: Record<string, string>;
  /** The server's own message (lowercase, no final period), or the transport's. */
  message: string;
  code: Code;
}

export function refusal(e: unknown): Refusal {
  const err = ConnectError.from(e);
  const info = err.findDetails(ErrorInfoSchema).find((d) => d.domain === "chessd");
  return {
    reason: info?.reason ?? "",
    metadata: info?.metadata ?? {},
    message: err.rawMessage,
    code: err.code,
  };
}

/**
 * Whether the same call may succeed later: no answer came (a dropped connection, a timeout),
 * the server is draining or its store is unreachable, or a rate limit asks to wait. Moves are
 * retried with the same request id, so a retry after a lost answer never plays twice.
 */
export function retryable(r: Refusal): boolean {
  if (
    r.reason === "RATE_LIMITED" ||
    r.reason === "STORE_UNAVAILABLE" ||
    r.reason === "SHUTTING_DOWN"
  ) {
    return true;
  }
  if (r.reason) return false;
  return r.code === Code.Unknown || r.code === Code.Unavailable || r.code === Code.DeadlineExceeded;
}

/** How long to wait before the retry a rate limit asks for, if it says. */
export function retryAfterMs(r: Refusal): number | null {
  const ms = Number(r.metadata.retry_after_ms);
  return r.reason === "RATE_LIMITED" && Number.isFinite(ms) ? ms : null;
}

const side = (name: string | undefined) =>
  name === "white" ? "White" : name === "black" ? "Black" : "The other side";

/** What a seat link whose token holds no seat in the game it names comes to. */
export const NOT_THIS_GAMES = "This seat link is not valid for this game: you can watch, not play.";

/** One sentence per reason a seat's call can be refused with. */
const SENTENCES: Record<string, (r: Refusal) => string> = {
  ILLEGAL_MOVE: () => "That move is not legal in this position.",
  MALFORMED_MOVE: () => "That is not a move: write it like e4, Nf3, O-O, exd5 or e7e8q.",
  AMBIGUOUS_MOVE: () =>
    "That move fits more than one piece: add the piece's file or rank (Nbd2), or write from and to (b1d2).",
  NOT_YOUR_TURN: (r) => `It is not your turn: ${side(r.metadata.turn)} is to move.`,
  PLY_MISMATCH: () =>
    "The game moved on before your move arrived (from another tab or device?): nothing was played.",
  GAME_OVER: () => "The game is already over.",
  REQUEST_ID_REUSED: () =>
    "The server already answered a different move under this request: nothing was played.",
  NO_DRAW_OFFER: () => "There is no draw offer standing any more.",
  WRONG_SEAT: () => "That answer belongs to your opponent: it is your own proposal.",
  DRAW_CLAIM_INVALID: (r) =>
    r.metadata.claim === "fifty moves"
      ? "No draw to claim: fewer than 50 moves by each side without a capture or a pawn move."
      : "No draw to claim: this position has not occurred three times with the same side to move, castling and en passant rights.",
  ABORT_NOT_ALLOWED: () => "Too late to abort: both sides have moved. You can resign instead.",
  TAKEBACKS_OFF: () => "This game allows no takebacks.",
  NOTHING_TO_TAKE_BACK: () => "You have no move to take back yet.",
  TAKEBACK_PENDING: () => "Your opponent's takeback proposal stands: answer it first.",
  NO_TAKEBACK_PROPOSAL: () => "There is no takeback proposal standing any more.",
  GAME_UNTIMED: () => "This game has no clocks.",
  CLAIM_ON_OWN_TURN: () => "It is your move: a win can be claimed only while the opponent is to move.",
  OPPONENT_CONNECTED: () => "Your opponent is back: the game goes on.",
  CLAIM_TOO_EARLY: (r) => {
    const at = Number(r.metadata.claim_at_ms);
    const s = Number.isFinite(at) ? Math.ceil((at - Date.now()) / 1000) : NaN;
    return s > 0
      ? `Too early to claim: your opponent has ${s} more seconds to come back.`
      : "Too early to claim: your opponent may still come back.";
  },
  TOKEN_INVALID: () => NOT_THIS_GAMES,
  TOKEN_MISSING: () => "The seat token did not reach the server: open the seat link again.",
  NOT_A_PLAYER: () =>
    "This server keeps games private and this seat link is not one of this game's.",
  CREDENTIALS_MISSING: () => "This server keeps games private: open the game with your seat link.",
  GAME_NOT_FOUND: () => "This game is not on the server (any more).",
  INVALID_GAME_ID: () => "This is not a game id.",
  RATE_LIMITED: () => "Too many requests at once: wait a moment and try again.",
  REQUEST_TOO_LARGE: () => "The request is larger than the server accepts.",
  STORE_UNAVAILABLE: () =>
    "The server cannot reach its game store right now: try again in a moment.",
  SHUTTING_DOWN: () => "The server is restarting: try again in a moment.",
};

/** The sentence to show a player for a refused or failed call. */
export function refusalText(r: Refusal): string {
  const sentence = SENTENCES[r.reason];
  if (sentence) return sentence(r);
  if (!r.reason)
    return `No answer from chessd (${r.message}): check your connection and try again.`;
  const message = r.message.charAt(0).toUpperCase() + r.message.slice(1);
  return `Refused (${r.reason}): ${message}.`;
}
