// A game as the page knows it: built from a WatchGame snapshot and kept current by the
// stream's events, exactly (each event's seq must follow the last). Every position is the
// server's FEN: the snapshot's start and current ones, each move event's, and those between,
// which a snapshot lists only as moves, from a replay of the game's events (`addPositions`,
// see history.ts). The views render it; the player's controls read the side to move, the legal
// moves and the draws that may be claimed. The play controls ride on the same events: a
// takeback proposed, declined or accepted (the moves after the new ply dropped), a clock
// changed off the board, and each seat's presence (which comes between numbered events).

import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Duration, Timestamp } from "@bufbuild/protobuf/wkt";

import { type Position, parseFen, sameStanding, sketch } from "./chess.js";
import { houseRules } from "./games.js";
import { type Geometry, geometryOf } from "./geometry.js";
import {
  ClockChangeReason,
  type Clocks,
  Color,
  DrawClaim,
  DrawRule,
  type Entropy,
  type Game,
  GameStatus,
  type MoveNotation,
  type Outcome,
  type SeatPresence,
  type Setup,
  type TakebackPolicy,
  Termination,
  type Variant,
  type WatchGameResponse,
} from "./gen/chessd/v1/chessd_pb.js";
import { colorName, moveLabel, outcomeText } from "./text.js";

export interface ClockState {
  /** Each side's time to its flag (with byoyomi: main time and periods together), in ms. */
  white: number;
  black: number;
  running: Color;
  /** Server time (ms since the epoch) the values were read at. */
  readAt: number;
  /** A byoyomi period in ms (0: a Fischer clock), and the periods each side had left. */
  period: number;
  whitePeriods: number;
  blackPeriods: number;
}

/** The server's legal moves for the position after `ply` plies. */
export interface LegalMoves {
  ply: number;
  moves: MoveNotation[];
}

export interface GameState {
  id: string;
  variant: Variant;
  /** The variant's key ("crazyhouse"), as the server names it. */
  variantKey: string;
  /** The board's shape, from the server's `Game.geometry`. */
  geo: Geometry;
  white: string;
  black: string;
  sans: string[];
  ucis: string[];
  /**
   * positions[i] is the position after i plies, from the server's FEN; null while the page has
   * not got it (the plies between a snapshot's start and its current position, until the
   * replay of the game's events brings them).
   */
  positions: (Position | null)[];
  /** Plies whose position is the page's sketch (see `chess.ts`), not a FEN of the server. */
  sketched: Set<number>;
  /** The server's FEN of the start position and of the current one. */
  startFen: string;
  fen: string;
  status: GameStatus;
  outcome: Outcome | null;
  clocks: ClockState | null;
  drawOffer: Color;
  drawRule: DrawRule;
  /** From the snapshot or a later GetGame; null when none is known for any recent ply. */
  legal: LegalMoves | null;
  lastSeq: bigint;
  /** Whether the seats may propose takebacks. */
  takebacks: TakebackPolicy;
  /** The side whose takeback proposal stands (UNSPECIFIED: none). */
  takebackOffer: Color;
  /** Each seat's presence as the server last told it (null: not told). */
  presence: { white: PresenceState | null; black: PresenceState | null };
  /**
   * When the game is aborted unless the side to move makes its first move (server ms), from
   * the snapshot or a later GetGame; null when no first-move timer runs or none is known.
   */
  firstMoveDeadline: number | null;
  /** The last event worth a line under the board ("Black declined the draw"). */
  note: string;
  /**
   * Screen Chess before the reveal: each seat's placement as this page may see it (its own
   * only); null once the game has its start, and in other games.
   */
  setup: Setup | null;
  /** A game with the players' entropy: its round (null in other games). */
  entropy: Entropy | null;
  /**
   * Plies a spectator of a hidden game is shown behind it (a delayed public view; 0: none). Its
   * stream skips the seqs of the moves the delayed game has not reached.
   */
  delay: number;
}

/** A seat's presence (SeatPresence), times in server ms. */
export interface PresenceState {
  connected: boolean;
  /** Since when connected, or gone; null when not seen since the server started. */
  since: number | null;
  /** When the opponent may claim the game (set while this seat is gone and to move). */
  claimAt: number | null;
  /** The game's grace period, ms. */
  claimAfterMs: number;
}

/** Why a stream must start again from a snapshot. */
export class Resync extends Error {}

export function durationMs(d: Duration | undefined): number {
  return d ? Number(d.seconds) * 1000 + Math.floor(d.nanos / 1e6) : 0;
}

export function tsMs(t: Timestamp | undefined): number {
  return t ? timestampMs(t) : Date.now();
}

function clockState(c: Clocks | undefined, period: number): ClockState | null {
  if (!c) return null;
  return {
    white: durationMs(c.whiteRemaining),
    black: durationMs(c.blackRemaining),
    running: c.running,
    readAt: tsMs(c.readAt),
    period,
    whitePeriods: c.whitePeriods,
    blackPeriods: c.blackPeriods,
  };
}

function presenceState(p: SeatPresence | undefined): PresenceState | null {
  if (!p) return null;
  return {
    connected: p.connected,
    since: p.since ? tsMs(p.since) : null,
    claimAt: p.claimAt ? tsMs(p.claimAt) : null,
    claimAfterMs: durationMs(p.claimAfter),
  };
}

/** The presence of `side` in `s`. */
export function presenceOf(s: GameState, side: Color): PresenceState | null {
  return side === Color.WHITE ? s.presence.white : s.presence.black;
}

/** The side that moved to reach ply `ply` (1 or more), from the start position's side to move. */
export function moverOf(s: GameState, ply: number): Color {
  const start = s.positions[0] ?? parseFen(s.startFen, s.geo);
  const first = start.whiteToMove ? Color.WHITE : Color.BLACK;
  return ply % 2 === 1 ? first : first === Color.WHITE ? Color.BLACK : Color.WHITE;
}

/** Takes in what a GetGame says that the stream does not: the first-move deadline. */
export function updateFromGame(s: GameState, g: Game): void {
  if (g.ply === plyOf(s)) s.firstMoveDeadline = g.firstMoveDeadline ? tsMs(g.firstMoveDeadline) : null;
}

export function fromSnapshot(g: Game, seq: bigint): GameState {
  const geo = geometryOf(g.geometry);
  const positions: (Position | null)[] = g.moves.map(() => null);
  positions.unshift(parseFen(g.startFen, geo));
  positions[g.moves.length] = parseFen(g.fen, geo);
  const sketched = new Set<number>();
  // No call returns the position after the game's first event when that was a move (a replay
  // starts after an event): the page sketches it until a replay brings it (when the first event
  // was something else), which for a variant's usual start is that position exactly.
  const first = g.moves[0];
  if (g.moves.length >= 2 && first && positions[0]) {
    positions[1] = sketch(positions[0], first.uci, first.san, houseRules(g.variantKey || g.variant));
    sketched.add(1);
  }
  return {
    id: g.gameId,
    variant: g.variant,
    variantKey: g.variantKey,
    geo,
    white: g.whitePlayer,
    black: g.blackPlayer,
    sans: g.moves.map((m) => m.san),
    ucis: g.moves.map((m) => m.uci),
    positions,
    sketched,
    startFen: g.startFen,
    fen: g.fen,
    status: g.status,
    outcome: g.outcome ?? null,
    clocks: clockState(g.clocks, durationMs(g.timeControl?.byoyomi)),
    drawOffer: g.drawOffer,
    drawRule: g.drawRule,
    legal: { ply: g.ply, moves: g.legalMoves },
    lastSeq: seq,
    takebacks: g.takebacks,
    takebackOffer: g.takebackOffer,
    presence: { white: presenceState(g.whitePresence), black: presenceState(g.blackPresence) },
    firstMoveDeadline: g.firstMoveDeadline ? tsMs(g.firstMoveDeadline) : null,
    note: "",
    setup: g.setup ?? null,
    entropy: g.entropy ?? null,
    delay: g.publicDelayPlies,
  };
}

/** Plies played. */
export const plyOf = (s: GameState) => s.positions.length - 1;

/** The current position, from the server's FEN. */
export const current = (s: GameState) => s.positions[plyOf(s)] as Position;

/** The side to move, from the server's FEN. */
export function turnOf(s: GameState): Color {
  return current(s).whiteToMove ? Color.WHITE : Color.BLACK;
}

/**
 * Positions the server sent for plies the page lacked (from a replay of the game's events):
 * each taken if its move is the game's move at that ply.
 */
export function addPositions(
  s: GameState,
  found: readonly { ply: number; uci: string; fen: string }[],
): void {
  for (const f of found) {
    if (f.ply < 1 || f.ply > plyOf(s) || s.ucis[f.ply - 1] !== f.uci) continue;
    if (s.positions[f.ply] && !s.sketched.has(f.ply)) continue;
    s.positions[f.ply] = parseFen(f.fen, s.geo);
    s.sketched.delete(f.ply);
  }
}

/** Plies between the start and the current position that have no server position yet. */
export function missingPositions(s: GameState): boolean {
  return s.positions.some((p, i) => p === null || (s.sketched.has(i) && i > 0));
}

/**
 * The draws the side to move may claim, as far as the page can tell. The fifty-move count
 * is the server's (its FEN). For threefold repetition the page compares the positions since
 * the last capture or pawn move, two plies apart, as the server does, by what their FENs say
 * but castling and en passant rights (the placement, and the pockets, promoted pieces and
 * checks left of the variants that have them): the same three times is necessary, and the
 * server, which also compares those rights, decides. So a claim that holds is always offered,
 * and a refused one (rights that differed) is rare and answered with the server's reason. The
 * API does not say which claims hold (see docs/web.md).
 */
export function claimableDraws(s: GameState): DrawClaim[] {
  if (s.status !== GameStatus.ONGOING || s.drawRule === DrawRule.AUTOMATIC) return [];
  const claims: DrawClaim[] = [];
  const n = plyOf(s);
  const now = current(s);
  const window = Math.min(now.halfmoves, n);
  let seen = 0;
  for (let back = 0; back <= window; back += 2) {
    // A position not known yet (being fetched) is not counted: the claim shows once it is.
    const then = s.positions[n - back];
    if (then && sameStanding(then, now)) seen += 1;
  }
  if (seen >= 3) claims.push(DrawClaim.THREEFOLD_REPETITION);
  if (now.halfmoves >= 100) claims.push(DrawClaim.FIFTY_MOVES);
  return claims;
}

/**
 * `side` has the turn from `at` (server ms): if it is gone, the opponent's claim cannot come
 * before the game's grace period has passed from then (as the server counts it).
 */
function handTurn(s: GameState, side: Color, at: number): void {
  const p = presenceOf(s, side);
  if (p && !p.connected) p.claimAt = Math.max(p.claimAt ?? 0, at + p.claimAfterMs);
}

/** The clocks frozen at `at` (server ms): the game ended then. */
function frozen(c: ClockState, at: number): ClockState {
  const left = (color: Color) => {
    const base = color === Color.WHITE ? c.white : c.black;
    return c.running === color ? Math.max(0, base - (at - c.readAt)) : base;
  };
  // The running side's periods may have passed since the reading: count them from what is left.
  const periods = (color: Color, had: number) => {
    const t = left(color);
    return c.period && t <= had * c.period ? Math.ceil(t / c.period) : had;
  };
  return {
    white: left(Color.WHITE),
    black: left(Color.BLACK),
    running: Color.UNSPECIFIED,
    readAt: at,
    period: c.period,
    whitePeriods: periods(Color.WHITE, c.whitePeriods),
    blackPeriods: periods(Color.BLACK, c.blackPeriods),
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
  // Presence is not game history: it comes between numbered events, with the last one's seq.
  if (ev.case === "playerPresence") {
    const p = presenceState(ev.value.presence);
    if (ev.value.seat === Color.WHITE) state.presence.white = p;
    else if (ev.value.seat === Color.BLACK) state.presence.black = p;
    return { state, announce: null };
  }
  // A replay after a reconnect may repeat what we have: sequence numbers make it exact.
  if (msg.seq <= state.lastSeq) return { state, announce: null };
  if (msg.seq !== state.lastSeq + 1n && state.delay === 0)
    throw new Resync(`gap: ${state.lastSeq} → ${msg.seq}`);
  state.lastSeq = msg.seq;
  let announce: string | null = null;
  switch (ev.case) {
    case "movePlayed": {
      const m = ev.value.move;
      if (!m || m.ply !== state.sans.length + 1) throw new Resync("unexpected ply");
      state.sans.push(m.san);
      state.ucis.push(m.uci);
      state.positions.push(parseFen(ev.value.fen, state.geo));
      state.fen = ev.value.fen;
      state.clocks = clockState(ev.value.clocks, state.clocks?.period ?? 0);
      state.drawOffer = ev.value.drawOffer;
      state.takebackOffer = Color.UNSPECIFIED;
      // The first-move timer of the side to move now, if any, is in the next GetGame.
      state.firstMoveDeadline = null;
      handTurn(state, m.color === Color.WHITE ? Color.BLACK : Color.WHITE, tsMs(msg.serverTime));
      state.note = "";
      announce = moveLabel(m.ply, m.san);
      break;
    }
    case "takebackProposed":
      state.takebackOffer = ev.value.by;
      state.note = `${colorName(ev.value.by)} proposes a takeback`;
      announce = state.note;
      break;
    case "takebackDeclined":
      state.takebackOffer = Color.UNSPECIFIED;
      state.note = `${colorName(ev.value.by)} declined the takeback`;
      announce = state.note;
      break;
    case "takebackWithdrawn":
      state.takebackOffer = Color.UNSPECIFIED;
      state.note = `${colorName(ev.value.by)} withdrew the takeback`;
      announce = state.note;
      break;
    case "movesTakenBack": {
      const ply = ev.value.ply;
      if (ply > plyOf(state)) throw new Resync("a takeback forward");
      state.sans.length = ply;
      state.ucis.length = ply;
      state.positions.length = ply + 1;
      for (const p of state.sketched) if (p > ply) state.sketched.delete(p);
      state.positions[ply] = parseFen(ev.value.fen, state.geo);
      state.sketched.delete(ply);
      state.fen = ev.value.fen;
      state.clocks = clockState(ev.value.clocks, state.clocks?.period ?? 0);
      state.drawOffer = Color.UNSPECIFIED;
      state.takebackOffer = Color.UNSPECIFIED;
      state.firstMoveDeadline = null;
      state.legal = null;
      handTurn(state, turnOf(state), tsMs(msg.serverTime));
      const n = ev.value.plies;
      state.note = `${n === 1 ? "One move" : `${n} moves`} taken back`;
      announce = state.note;
      break;
    }
    case "clockChanged": {
      state.clocks = clockState(ev.value.clocks, state.clocks?.period ?? 0);
      const c = ev.value;
      const side = colorName(c.side);
      state.note =
        c.reason === ClockChangeReason.GIVEN
          ? `${colorName(c.by)} gave ${side} time`
          : `The arbiter changed ${side}'s clock`;
      announce = state.note;
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
    // A placement changes what the seat sees of the board being set up, and the reveal gives
    // the game its start: both are read afresh from a snapshot (a handful per game).
    case "setupPlaced":
      throw new Resync("the setup changed");
    // The round of the players' entropy, and its end that gives the game its start (Dice
    // Chess's first roll): read afresh too (four per game).
    case "entropySubmitted":
      throw new Resync("the players' entropy changed");
    case "gameOver": {
      const o = ev.value.outcome ?? null;
      state.outcome = o;
      state.status =
        o?.termination === Termination.ABORTED || o?.termination === Termination.NO_START
          ? GameStatus.ABORTED
          : GameStatus.FINISHED;
      state.drawOffer = Color.UNSPECIFIED;
      state.takebackOffer = Color.UNSPECIFIED;
      state.firstMoveDeadline = null;
      state.legal = null;
      if (ev.value.fen) {
        state.fen = ev.value.fen;
        state.positions[plyOf(state)] = parseFen(ev.value.fen, state.geo);
      }
      // The clocks stop when the game ends.
      if (state.clocks) state.clocks = frozen(state.clocks, tsMs(msg.serverTime));
      if (o) announce = outcomeText(o);
      break;
    }
  }
  return { state, announce };
}
