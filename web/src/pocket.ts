// Beside each side of the board, what a variant keeps off it: Crazyhouse's pocket (the pieces a
// side holds to drop, with their counts; the player's own are buttons to pick a piece from,
// see input.ts) and Three-check's checks given. Both come from the FEN of the position shown,
// and both have a sentence for screen readers.

import { pieceIcon, roleName } from "./board.js";
import { CHECKS_TO_WIN, POCKET_ROLES, type Pocket, type PocketRole } from "./chess.js";
import { h } from "./dom.js";

export interface PocketView {
  white: boolean;
  pocket: Pocket;
  /** The player's own pocket: its pieces are buttons. */
  own: boolean;
  /** The roles the player can drop now (empty when it is not their move). */
  droppable: ReadonlySet<PocketRole>;
  /** The role picked up from it. */
  picked: PocketRole | null;
}

/** "White's pocket: 2 pawns, 1 knight", "Black's pocket: empty". */
export function pocketText(white: boolean, pocket: Pocket): string {
  const held = POCKET_ROLES.filter((r) => pocket[r] > 0).map(
    (r) => `${pocket[r]} ${roleName(r, pocket[r])}`,
  );
  return `${white ? "White" : "Black"}'s pocket: ${held.join(", ") || "empty"}`;
}

/** Fills `node` (kept, so a pointer captured by it survives) with one side's pocket. */
export function renderPocket(node: HTMLElement, v: PocketView): void {
  const side = v.white ? "white" : "black";
  node.dataset.color = side;
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", `${v.white ? "White" : "Black"}'s pocket`);
  const items = POCKET_ROLES.map((role) => {
    const count = v.pocket[role];
    const piece = v.white ? role.toUpperCase() : role;
    const label = `${count} ${roleName(role, count)}`;
    const content = [pieceIcon(piece), h("span", { class: "count", "aria-hidden": "true" }, String(count))];
    const attrs = { class: "pocket-piece", "data-role": role, "data-count": String(count) };
    if (!v.own) return h("span", { ...attrs, title: label }, ...content);
    const b = h(
      "button",
      {
        ...attrs,
        type: "button",
        "aria-label": `Drop a ${roleName(role)} (${count} in your pocket)`,
        "aria-pressed": String(v.picked === role),
      },
      ...content,
    );
    b.disabled = count === 0 || !v.droppable.has(role);
    return b;
  });
  node.replaceChildren(
    h("span", { class: "visually-hidden", "data-pocket-text": side }, pocketText(v.white, v.pocket)),
    ...items,
  );
}

/** "White has given 1 of 3 checks" for screen readers; the strip shows "Checks 1/3". */
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
