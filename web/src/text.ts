// What the page writes about a game: variant and side names, results and why games end, clock
// readings, move labels, the title and the seat's line. The variant and termination tables are
// `Record`s over the generated enums, so a value added to the proto fails the type check until
// it has its words here.

import { startNumberOfFen } from "./chess960.js";
import { gameInfo } from "./games.js";
import {
  Color,
  GameStatus,
  type Outcome,
  Termination,
  Variant,
} from "./gen/chessd/v1/chessd_pb.js";

const VARIANT_NAMES: Record<Variant, string> = {
  [Variant.UNSPECIFIED]: "Unknown variant",
  [Variant.CHESS]: "Chess",
  [Variant.RACING_KINGS]: "Racing Kings",
  [Variant.CHESS960]: "Chess960",
  [Variant.THREE_CHECK]: "Three-check",
  [Variant.KING_OF_THE_HILL]: "King of the Hill",
  [Variant.ANTICHESS]: "Antichess",
  [Variant.ATOMIC]: "Atomic",
  [Variant.HORDE]: "Horde",
  [Variant.CRAZYHOUSE]: "Crazyhouse",
};

export function variantName(v: Variant): string {
  return VARIANT_NAMES[v] ?? `Variant ${v}`;
}

/**
 * A game's name from its key, or its `Variant`'s: the wide family's games are all
 * `Variant.UNSPECIFIED`, so their key names them ("Grand Chess").
 */
export function gameName(v: Variant, key = ""): string {
  return gameInfo(key)?.name ?? (key && v === Variant.UNSPECIFIED ? key : variantName(v));
}

/**
 * The game view's title: "wendy – bert · Crazyhouse", with a Chess960 game's start number when
 * it started from one ("· Chess960 · start 300").
 */
export function gameTitle(
  white: string,
  black: string,
  variant: Variant,
  startFen: string,
  key = "",
): string {
  const start = variant === Variant.CHESS960 ? startNumberOfFen(startFen) : null;
  const game = gameName(variant, key);
  const name = start === null ? game : `${game} · start ${start}`;
  return `${white || "White"} – ${black || "Black"} · ${name}`;
}

/** The seat's line once its side is known: "You play White · your move", "… · you won". */
export function seatText(
  you: Color,
  status: GameStatus,
  winner: Color,
  toMove: Color,
  stepping: boolean,
): string {
  const line = `You play ${colorName(you)}`;
  if (status === GameStatus.ABORTED) return `${line} · the game was aborted`;
  if (status !== GameStatus.ONGOING) {
    const end = winner === Color.UNSPECIFIED ? "drawn" : winner === you ? "you won" : "you lost";
    return `${line} · ${end}`;
  }
  if (toMove === you)
    return `${line} · your move${stepping ? " (press End to return to the game)" : ""}`;
  return `${line} · ${colorName(toMove)} to move`;
}

export function colorName(c: Color): string {
  return c === Color.WHITE ? "White" : c === Color.BLACK ? "Black" : "";
}

export function opponent(c: Color): Color {
  return c === Color.WHITE ? Color.BLACK : Color.WHITE;
}

/** Why a game ended, as the result line says it after the winner ("White wins ..."). */
type Reason = { win: string | null; draw: string | null };

/**
 * Why a game ended, in words: `win` follows "White wins" or "Black wins", `draw` is the whole
 * line of a game without a winner; null where the termination never ends that way (the line
 * still says who won, or that it is a draw, if the server ever sends one).
 */
const TERMINATION_TEXT: Record<Termination, Reason> = {
  [Termination.UNSPECIFIED]: { win: null, draw: null },
  [Termination.CHECKMATE]: { win: "by checkmate", draw: null },
  [Termination.STALEMATE]: { win: null, draw: "Draw by stalemate" },
  [Termination.INSUFFICIENT_MATERIAL]: { win: null, draw: "Draw by insufficient material" },
  [Termination.REPETITION]: { win: null, draw: "Draw by repetition" },
  [Termination.FIFTY_MOVE_RULE]: { win: null, draw: "Draw by the fifty-move rule" },
  [Termination.RACE]: { win: "by the race to rank 8", draw: "Draw by the race to rank 8" },
  [Termination.RESIGNATION]: { win: "by resignation", draw: null },
  [Termination.AGREEMENT]: { win: null, draw: "Draw by agreement" },
  [Termination.TIME_FORFEIT]: {
    win: "on time",
    draw: "Draw: a flag fell, but the other side could not have won",
  },
  [Termination.ABANDONMENT]: { win: "by abandonment", draw: "Draw: one side left the game" },
  [Termination.ABORTED]: { win: null, draw: null },
  [Termination.THIRD_CHECK]: { win: "by giving the third check", draw: null },
  [Termination.KING_OF_THE_HILL]: { win: "by bringing the king to the centre", draw: null },
  [Termination.KING_EXPLODED]: { win: "by blowing up the king", draw: null },
  [Termination.ALL_PIECES_LOST]: { win: "by losing every piece", draw: null },
  [Termination.STALEMATE_WIN]: { win: "by having no legal move left", draw: null },
  [Termination.HORDE_DESTROYED]: { win: "by capturing the whole horde", draw: null },
  [Termination.NO_START]: { win: null, draw: null },
  [Termination.EXTINCTION]: { win: "by taking the last piece of a kind", draw: null },
  [Termination.NO_CAPTURE]: { win: "as the opponent had no capture left", draw: null },
  [Termination.STALEMATE_LOSS]: { win: "as the opponent had no legal move left", draw: null },
  [Termination.PERPETUAL_CHECK]: { win: "as the opponent checked perpetually", draw: null },
  [Termination.PERPETUAL_CHASE]: { win: "as the opponent chased perpetually", draw: null },
  [Termination.REPETITION_LOSS]: { win: "by the fourth repetition", draw: null },
  [Termination.IMPASSE]: { win: "by impasse (entering king)", draw: null },
  [Termination.KING_FROZEN]: { win: "as the opponent's king froze", draw: "Draw: both kings froze" },
  [Termination.KING_CAPTURED]: { win: "by capturing the king", draw: null },
  [Termination.KING_DESTROYED]: { win: "as the Behemoth destroyed the opponent's king", draw: "Draw: the Behemoth destroyed both kings" },
};

/**
 * "1-0 · White wins by checkmate", "½-½ · Draw by agreement", "1-0 · White wins by giving the
 * third check", "Game aborted".
 */
export function outcomeText(o: Outcome): string {
  if (o.termination === Termination.ABORTED) return "Game aborted";
  if (o.termination === Termination.NO_START)
    return "Game aborted: the first move did not come in time";
  const reason = TERMINATION_TEXT[o.termination] ?? TERMINATION_TEXT[Termination.UNSPECIFIED];
  const result = o.pgnResult === "1/2-1/2" ? "½-½" : o.pgnResult;
  if (o.winner === Color.WHITE || o.winner === Color.BLACK) {
    const wins = `${colorName(o.winner)} wins`;
    return `${result} · ${reason.win ? `${wins} ${reason.win}` : wins}`;
  }
  return `${result} · ${reason.draw ?? "Draw"}`;
}

/** "4:59", "0:07.3" (tenths under ten seconds), "1:02:03". */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  const total = Math.floor(clamped / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${ss}`;
  if (clamped < 10_000) return `${minutes}:${ss}.${Math.floor((clamped % 1000) / 100)}`;
  return `${minutes}:${ss}`;
}

/**
 * The move box's example moves: only notations the variant has, so a drop only where pieces
 * drop and castling only where it exists; short enough to fit the box (`.move-form input` in
 * app.css).
 */
const MOVE_EXAMPLES: Record<Variant, string> = {
  [Variant.UNSPECIFIED]: "e4, Nf3",
  [Variant.CHESS]: "e4, Nf3, O-O",
  [Variant.RACING_KINGS]: "Kh3, Nd3",
  [Variant.CHESS960]: "e4, Nf3, O-O",
  [Variant.THREE_CHECK]: "e4, Nf3, O-O",
  [Variant.KING_OF_THE_HILL]: "e4, Nf3, O-O",
  [Variant.ANTICHESS]: "e4, Nf3, exd5",
  [Variant.ATOMIC]: "e4, Nf3, O-O",
  [Variant.HORDE]: "e4, Nf3, O-O",
  [Variant.CRAZYHOUSE]: "e4, Nf3, P@e4",
};

/** The examples for a game by `Variant`, or by key for the wide family's. */
export function moveExamples(v: Variant, key = ""): string {
  if (v === Variant.UNSPECIFIED) return gameInfo(key)?.examples ?? MOVE_EXAMPLES[v];
  return MOVE_EXAMPLES[v] ?? MOVE_EXAMPLES[Variant.UNSPECIFIED];
}

/** "3. e4" for ply 5, "3... e5" for ply 6. */
export function moveLabel(ply: number, san: string): string {
  return `${Math.ceil(ply / 2)}${ply % 2 ? "." : "..."} ${san}`;
}
