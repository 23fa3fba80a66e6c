// Which of the server's legal moves the player names: by what they picked up (a piece on a
// square or one from the Crazyhouse pocket) and where they put it, or by typing it. A castling
// king may be put onto its own rook or onto the square it lands on, whichever UCI form the
// server listed, as chessd reads both. The page judges no move itself: every move named here is
// one of the list the server sent.

import type { TargetKind } from "./board.js";
import { type Board, type PocketRole, castlingOf, parseUci } from "./chess.js";
import type { Geometry } from "./geometry.js";
import type { MoveNotation } from "./gen/chessd/v1/chessd_pb.js";

/** What the player has picked up: a piece on the board, or one from their pocket. */
export type Pick = { kind: "square"; square: number } | { kind: "pocket"; role: PocketRole };

export const samePick = (a: Pick | null, b: Pick | null) =>
  !!a &&
  !!b &&
  (a.kind === "square"
    ? b.kind === "square" && a.square === b.square
    : b.kind === "pocket" && a.role === b.role);

/**
 * The moves of `legal` that `pick` can make, by target square (several where a promotion is
 * to be chosen). A castling king also reaches its rook's square and its landing square, as
 * chessd reads castling in both UCI forms, unless another move of the king goes there.
 */
export function movesOf(
  board: Board,
  legal: readonly MoveNotation[],
  pick: Pick,
  geo: Geometry,
): Map<number, MoveNotation[]> {
  const by = new Map<number, MoveNotation[]>();
  const add = (sq: number, m: MoveNotation) => by.set(sq, [...(by.get(sq) ?? []), m]);
  const castles: MoveNotation[] = [];
  for (const m of legal) {
    const parts = parseUci(m.uci, geo);
    if (!parts) continue;
    if (pick.kind === "pocket") {
      if (parts.kind === "drop" && parts.role === pick.role) add(parts.to, m);
    } else if (parts.kind === "move" && parts.from === pick.square) {
      add(parts.to, m);
      if (castlingOf(board, m.uci, m.san, geo)) castles.push(m);
    }
  }
  for (const m of castles) {
    const c = castlingOf(board, m.uci, m.san, geo);
    for (const sq of c ? [c.rook, c.kingTo] : []) {
      if (sq !== c?.king && !by.has(sq)) by.set(sq, [m]);
    }
  }
  return by;
}

/** How each target of `pick` is marked. */
export function targetKinds(
  board: Board,
  pick: Pick,
  moves: Map<number, MoveNotation[]>,
  geo: Geometry,
): Map<number, TargetKind> {
  const kinds = new Map<number, TargetKind>();
  const piece = pick.kind === "square" ? (board[pick.square] ?? "") : "";
  for (const [to, ms] of moves) {
    const there = board[to] ?? "";
    const castle = ms.some((m) => castlingOf(board, m.uci, m.san, geo));
    if (castle) kinds.set(to, there === "" ? "move" : "castle");
    // Any other move onto a piece takes it: an enemy's, an ice cube, or Recycle's own piece.
    else if (there !== "") kinds.set(to, "capture");
    // En passant takes on an empty square one rank on, aside (a xiangqi soldier's step aside,
    // on its rank, and Knight Relay's pawn jumping as a knight do not).
    else if (
      piece.toLowerCase() === "p" &&
      pick.kind === "square" &&
      geo.fileOf(to) !== geo.fileOf(pick.square) &&
      Math.abs(geo.rankOf(to) - geo.rankOf(pick.square)) === 1
    )
      kinds.set(to, "capture");
    else kinds.set(to, "move");
  }
  return kinds;
}

/**
 * SAN as a player may type it: without check marks, with "0-0" for "O-O", "e8Q" for "e8=Q",
 * "n@f3" for "N@f3" and "@e4" for a pawn's drop "P@e4".
 */
function normalSan(text: string): string {
  return text
    .trim()
    .replace(/[+#!?]+$/, "")
    .replace(/0/g, "O")
    .replace("=", "")
    .replace(/^@/, "P@")
    .replace(/^[pnbrq]@/, (drop) => drop.toUpperCase());
}

/**
 * The legal move a typed text names (its UCI, its SAN without check marks, or a castling in the
 * other UCI form chessd also reads: the king onto its rook or onto its landing square), or
 * null. `board` is the position the moves are legal in.
 */
export function typedMove(
  text: string,
  legal: readonly MoveNotation[],
  board: Board,
  geo: Geometry,
): MoveNotation | null {
  const t = text.trim();
  // Shogi's SAN ends in `+` for a promotion, not a check: its exact text is taken first.
  const asWritten = legal.find((m) => m.san === t);
  if (asWritten) return asWritten;
  // UCI is lower case but for a drop's piece ("P@e4", shogi's "G@e5"); either case is taken.
  const uci = /^[a-z]@/i.test(t)
    ? t[0]?.toUpperCase() + t.slice(1).toLowerCase()
    : t.toLowerCase();
  const exact = legal.find((m) => m.uci === uci);
  if (exact) return exact;
  const parts = parseUci(uci, geo);
  if (parts?.kind === "move" && !parts.promotion) {
    const castle = movesOf(board, legal, { kind: "square", square: parts.from }, geo).get(
      parts.to,
    );
    if (castle?.length === 1 && castle[0]) return castle[0];
  }
  const san = normalSan(t);
  return legal.find((m) => normalSan(m.san) === san) ?? null;
}
