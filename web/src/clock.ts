// One clock strip beside the board: the side's player (and "(you)" for the seat's own), whether
// the player is connected (as the server tells: a seat watching its game), the checks it has
// given in Three-check, and its time left, counting down while it is to move.

import { CHECKS_TO_WIN } from "./chess.js";
import { h } from "./dom.js";
import { Color } from "./gen/chessd/v1/chessd_pb.js";
import type { ClockState, PresenceState } from "./state.js";
import { colorName, formatClock } from "./text.js";

export interface ClockView {
  side: Color;
  /** The player's name as the game has it ("" when it has none). */
  name: string;
  you: boolean;
  clocks: ClockState | null;
  /** The server's time now, ms since the epoch. */
  serverNow: number;
  /** Three-check: the checks this side has still to give, in the position shown; else null. */
  checksLeft: number | null;
  /** The player's presence (null: the server has said nothing, e.g. a finished game). */
  presence: PresenceState | null;
  /** Dice Chess: the face the server rolled for this side, while it is to move; else null. */
  roll: number | null;
}

/** The die's faces: the piece type each one moves. */
const FACES = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/** "online", "away" or "away · can be claimed in 0:12" (the last for the claim's countdown). */
export function presenceText(p: PresenceState, serverNow: number): string {
  if (p.connected) return "online";
  if (p.claimAt !== null && p.claimAt > serverNow)
    return `away · can be claimed in ${formatClock(p.claimAt - serverNow).replace(/\.\d$/, "")}`;
  return p.claimAt !== null ? "away · can be claimed" : "away";
}

/** The time `side` has left at `serverNow`. */
export function clockMs(c: ClockState, side: Color, serverNow: number): number {
  const base = side === Color.WHITE ? c.white : c.black;
  if (c.running !== side) return base;
  return Math.max(0, base - (serverNow - c.readAt));
}

/**
 * `side`'s clock as shown at `serverNow`: its time left; with byoyomi, the main time and the
 * periods after it ("9:42 + 3 × 0:30"), then the current period's time and the periods left
 * ("0:25 · 2 periods", "0:07.3 · last period").
 */
export function clockText(c: ClockState, side: Color, serverNow: number): string {
  const left = clockMs(c, side, serverNow);
  if (!c.period) return formatClock(left);
  const periods = side === Color.WHITE ? c.whitePeriods : c.blackPeriods;
  const main = left - periods * c.period;
  if (main > 0) return `${formatClock(main)} + ${periods} × ${formatClock(c.period)}`;
  // Periods pass while the clock runs: the one it is in now, counted from what is left.
  const now = Math.ceil(left / c.period);
  if (now <= 0) return formatClock(0);
  const current = left - (now - 1) * c.period;
  return `${formatClock(current)} · ${now === 1 ? "last period" : `${now} periods`}`;
}

/** "Checks 1/3" on the strip; "White has given 1 of 3 checks" for screen readers. */
export function renderChecks(node: HTMLElement, white: boolean, left: number): void {
  const given = Math.max(0, CHECKS_TO_WIN - left);
  node.dataset.given = String(given);
  node.replaceChildren(
    h("span", { "aria-hidden": "true" }, `Checks ${given}/${CHECKS_TO_WIN}`),
    h(
      "span",
      { class: "visually-hidden" },
      `${white ? "White" : "Black"} has given ${given} of ${CHECKS_TO_WIN} checks`,
    ),
  );
}

export function renderClock(node: HTMLElement, v: ClockView): void {
  const white = v.side === Color.WHITE;
  const c = v.clocks;
  node.dataset.color = white ? "white" : "black";
  node.classList.toggle("running", !!c && c.running === v.side);
  const checks = h("span", { class: "checks", "data-checks": white ? "white" : "black" });
  if (v.checksLeft !== null) renderChecks(checks, white, v.checksLeft);
  const p = v.presence;
  node.replaceChildren(
    h(
      "span",
      { class: "name" },
      h("span", { class: `swatch ${white ? "white" : "black"}` }),
      v.name || colorName(v.side),
      v.you ? h("span", { class: "you" }, " (you)") : "",
      p
        ? h(
            "span",
            { class: "presence", "data-presence": p.connected ? "connected" : "gone" },
            ` ${presenceText(p, v.serverNow)}`,
          )
        : "",
    ),
    v.checksLeft !== null ? checks : "",
    v.roll !== null
      ? h(
          "span",
          { class: "die", "data-die": String(v.roll) },
          `Die ${v.roll}: ${FACES[v.roll - 1] ?? "?"} to move`,
        )
      : "",
    h(
      "span",
      { class: "time", "data-clock": white ? "white" : "black" },
      c ? clockText(c, v.side, v.serverNow) : "–",
    ),
  );
}
