// A game as the page knows it: built from a WatchGame snapshot and kept current by the
// stream's events, exactly (each event's seq must follow the last). The views render it; the
// player's controls read the side to move, the legal moves and the draws that may be claimed.
// A new event kind (takebacks, presence) is one more case in `applyEvent`.

import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Duration, Timestamp } from "@bufbuild/protobuf/wkt";

import { type Board, parseFen, playUci, samePlacement } from "./chess.js";
import {
  type Clocks,
  Color,
  DrawClaim,
  DrawRule,
  type Game,
  GameStatus,
  type MoveNotation,
  type Outcome,
  Termination,
  type Variant,
  type WatchGameResponse,
} from "./gen/chessd/v1/chessd_pb.js";
import { colorName, moveLabel, outcomeText } from "./text.js";

export interface ClockState {
  white: number;
  black: number;
  running: Color;
  /** Server time (ms since the epoch) the values were read at. */
  readAt: number;
}

/** The server's legal moves for the position after `ply` plies. */
export interface LegalMoves {
  ply: number;
  moves: MoveNotation[];
}

export interface GameState {
  id: string;
  variant: Variant;
  white: string;
  black: string;
  sans: string[];
  ucis: string[];
  /** boards[i] is the position after i plies. */
  boards: Board[];
  /** The server's FEN of the current position. */
  fen: string;
  status: GameStatus;
  outcome: Outcome | null;
  clocks: ClockState | null;
  drawOffer: Color;
  drawRule: DrawRule;
  /** From the snapshot or a later GetGame; null when none is known for any recent ply. */
  legal: LegalMoves | null;
  lastSeq: bigint;
  /** The last event worth a line under the board ("Black declined the draw"). */
  note: string;
}

/** Why a stream must start again from a snapshot. */
export class Resync extends Error {}

export function durationMs(d: Duration | undefined): number {
  return d ? Number(d.seconds) * 1000 + Math.floor(d.nanos / 1e6) : 0;
}

export function tsMs(t: Timestamp | undefined): number {
  return t ? timestampMs(t) : Date.now();
}

function clockState(c: Clocks | undefined): ClockState | null {
  if (!c) return null;
  return {
    white: durationMs(c.whiteRemaining),
    black: durationMs(c.blackRemaining),
    running: c.running,
    readAt: tsMs(c.readAt),
  };
}

export function fromSnapshot(g: Game, seq: bigint): GameState {
  const boards: Board[] = [parseFen(g.startFen)];
  for (const m of g.moves) boards.push(playUci(boards[boards.length - 1] as Board, m.uci));
  // The server's position is authoritative for the current ply.
  boards[boards.length - 1] = parseFen(g.fen);
  return {
    id: g.gameId,
    variant: g.variant,
    white: g.whitePlayer,
    black: g.blackPlayer,
    sans: g.moves.map((m) => m.san),
    ucis: g.moves.map((m) => m.uci),
    boards,
    fen: g.fen,
    status: g.status,
    outcome: g.outcome ?? null,
    clocks: clockState(g.clocks),
    drawOffer: g.drawOffer,
    drawRule: g.drawRule,
    legal: { ply: g.ply, moves: g.legalMoves },
    lastSeq: seq,
    note: "",
  };
}

/** Plies played. */
export const plyOf = (s: GameState) => s.boards.length - 1;

/** The side to move, from the server's FEN. */
export function turnOf(s: GameState): Color {
  return s.fen.split(/\s+/)[1] === "b" ? Color.BLACK : Color.WHITE;
}

/** The FEN's half-move clock: plies since the last capture or pawn move. */
function halfmoves(s: GameState): number {
  const n = Number(s.fen.split(/\s+/)[4]);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/**
 * The draws the side to move may claim, as far as the page can tell. The fifty-move count
 * is the server's (its FEN). For threefold repetition the page compares piece placements
 * since the last capture or pawn move, two plies apart, as the server does: the same
 * placement three times is necessary, and the server, which also compares castling and en
 * passant rights, decides. So a claim that holds is always offered, and a refused one (rights
 * that differed) is rare and answered with the server's reason. The API does not say which
 * claims hold (see docs/web.md).
 */
export function claimableDraws(s: GameState): DrawClaim[] {
  if (s.status !== GameStatus.ONGOING || s.drawRule === DrawRule.AUTOMATIC) return [];
  const claims: DrawClaim[] = [];
  const n = plyOf(s);
  const window = Math.min(halfmoves(s), n);
  const current = s.boards[n] as Board;
  let seen = 0;
  for (let back = 0; back <= window; back += 2) {
    if (samePlacement(s.boards[n - back] as Board, current)) seen += 1;
  }
  if (seen >= 3) claims.push(DrawClaim.THREEFOLD_REPETITION);
  if (halfmoves(s) >= 100) claims.push(DrawClaim.FIFTY_MOVES);
  return claims;
}

/** The clocks frozen at `at` (server ms): the game ended then. */
function frozen(c: ClockState, at: number): ClockState {
  const left = (color: Color) => {
    const base = color === Color.WHITE ? c.white : c.black;
    return c.running === color ? Math.max(0, base - (at - c.readAt)) : base;
  };
  return {
    white: left(Color.WHITE),
    black: left(Color.BLACK),
    running: Color.UNSPECIFIED,
    readAt: at,
  };
}

/**
 * Applies one stream message to `state` (a snapshot replaces it: the caller passes null
 * before the first). Returns the new state and a line to announce to screen readers, or null.
 * Throws `Resync` when the stream and the state no longer fit together.
 */
export function applyEvent(
  state: GameState | null,
  msg: WatchGameResponse,
): { state: GameState | null; announce: string | null } {
  const ev = msg.event;
  if (ev.case === "heartbeat" || ev.case === undefined) return { state, announce: null };
  if (ev.case === "snapshot") return { state: fromSnapshot(ev.value, msg.seq), announce: null };
  if (!state) throw new Resync("an event before the snapshot");
  // A replay after a reconnect may repeat what we have: sequence numbers make it exact.
  if (msg.seq <= state.lastSeq) return { state, announce: null };
  if (msg.seq !== state.lastSeq + 1n) throw new Resync(`gap: ${state.lastSeq} → ${msg.seq}`);
  state.lastSeq = msg.seq;
  let announce: string | null = null;
  switch (ev.case) {
    case "movePlayed": {
      const m = ev.value.move;
      if (!m || m.ply !== state.sans.length + 1) throw new Resync("unexpected ply");
      state.sans.push(m.san);
      state.ucis.push(m.uci);
      state.boards.push(parseFen(ev.value.fen));
      state.fen = ev.value.fen;
      state.clocks = clockState(ev.value.clocks);
      state.drawOffer = ev.value.drawOffer;
      state.note = "";
      announce = moveLabel(m.ply, m.san);
      break;
    }
    case "drawOffered":
      state.drawOffer = ev.value.by;
      break;
    case "drawDeclined":
      state.drawOffer = Color.UNSPECIFIED;
      state.note = `${colorName(ev.value.by)} declined the draw`;
      announce = state.note;
      break;
    case "gameOver": {
      const o = ev.value.outcome ?? null;
      state.outcome = o;
      state.status =
        o?.termination === Termination.ABORTED ? GameStatus.ABORTED : GameStatus.FINISHED;
      state.drawOffer = Color.UNSPECIFIED;
      state.legal = null;
      if (ev.value.fen) state.fen = ev.value.fen;
      // The clocks stop when the game ends.
      if (state.clocks) state.clocks = frozen(state.clocks, tsMs(msg.serverTime));
      if (o) announce = outcomeText(o);
      break;
    }
  }
  return { state, announce };
}
