// What the page writes about a game: variant and side names, results, clock readings, move
// labels.

import { Color, type Outcome, Termination, Variant } from "./gen/chessd/v1/chessd_pb.js";

export function variantName(v: Variant): string {
  return v === Variant.RACING_KINGS ? "Racing Kings" : "Chess";
}

export function colorName(c: Color): string {
  return c === Color.WHITE ? "White" : c === Color.BLACK ? "Black" : "";
}

export function opponent(c: Color): Color {
  return c === Color.WHITE ? Color.BLACK : Color.WHITE;
}

const TERMINATION_TEXT: Record<number, string> = {
  [Termination.CHECKMATE]: "checkmate",
  [Termination.STALEMATE]: "stalemate",
  [Termination.INSUFFICIENT_MATERIAL]: "insufficient material",
  [Termination.REPETITION]: "repetition",
  [Termination.FIFTY_MOVE_RULE]: "the fifty-move rule",
  [Termination.RACE]: "the race to rank 8",
  [Termination.RESIGNATION]: "resignation",
  [Termination.AGREEMENT]: "agreement",
  [Termination.TIME_FORFEIT]: "time forfeit",
  [Termination.ABANDONMENT]: "abandonment",
  [Termination.ABORTED]: "abort",
};

/** "1-0 · White wins by checkmate", "½-½ · Draw by agreement", "Game aborted". */
export function outcomeText(o: Outcome): string {
  if (o.termination === Termination.ABORTED) return "Game aborted";
  const reason = TERMINATION_TEXT[o.termination] ?? "an unknown reason";
  const result = o.pgnResult === "1/2-1/2" ? "½-½" : o.pgnResult;
  if (o.winner === Color.WHITE) return `${result} · White wins by ${reason}`;
  if (o.winner === Color.BLACK) return `${result} · Black wins by ${reason}`;
  return `${result} · Draw by ${reason}`;
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

/** "3. e4" for ply 5, "3... e5" for ply 6. */
export function moveLabel(ply: number, san: string): string {
  return `${Math.ceil(ply / 2)}${ply % 2 ? "." : "..."} ${san}`;
}
