// Ambiguous Chess's two-part turn on the board: first the opponent's piece that goes to the
// pending target (the execution), then the player's own target (the mark). The server lists
// whole turns (`g1f3>d5=d7d5`, `>e4`, `a1e1` when the execution ends the game); this file splits
// them into the choices of each part, so the input offers the executions first and then the
// marks that may follow the one chosen. Every turn played is one of the server's list.

import { create } from "@bufbuild/protobuf";

import { turnParts } from "./chess.js";
import type { Geometry } from "./geometry.js";
import { type MoveNotation, MoveNotationSchema } from "./gen/chessd/v1/chessd_pb.js";

/** Whether `legal` are Ambiguous Chess turns: at least one of them marks a target. */
export function twoPart(legal: readonly MoveNotation[]): boolean {
  return legal.some((m) => turnParts(m.uci) !== null);
}

/** A turn's execution: its text before `>`, or all of a turn that only executes. */
function executionOf(m: MoveNotation): string {
  return turnParts(m.uci)?.execution ?? m.uci;
}

/** The executions the turns begin with, each once, as moves to pick (none on a mark-only turn). */
export function executions(legal: readonly MoveNotation[]): MoveNotation[] {
  const seen = new Set<string>();
  const out: MoveNotation[] = [];
  for (const m of legal) {
    const e = executionOf(m);
    if (e === "" || seen.has(e)) continue;
    seen.add(e);
    out.push(create(MoveNotationSchema, { uci: e, san: e }));
  }
  return out;
}

/** The turn that is `execution` alone (it takes a king or leaves no target), if there is one. */
export function executionAlone(
  legal: readonly MoveNotation[],
  execution: string,
): MoveNotation | null {
  return legal.find((m) => m.uci === execution) ?? null;
}

/** The turns that follow `execution` ("" for none) with a mark, by the square they mark. */
export function marksAfter(
  legal: readonly MoveNotation[],
  execution: string,
  geo: Geometry,
): Map<number, MoveNotation> {
  const by = new Map<number, MoveNotation>();
  for (const m of legal) {
    const t = turnParts(m.uci);
    if (!t || t.execution !== execution) continue;
    const sq = geo.parse(t.mark);
    if (sq >= 0) by.set(sq, m);
  }
  return by;
}
