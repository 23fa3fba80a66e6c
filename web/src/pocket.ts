// The hands beside the board (Crazyhouse's and Loop's pockets, shogi's komadai), each on its side's
// edge: the pieces a side holds to drop, with their counts, from the FEN of the position shown,
// drawn as the game draws them (a shogi piece turned toward its owner), and a sentence for screen
// readers. The seat's own pieces are buttons to pick a piece from (see input.ts), enabled for the
// drops the server lists as legal. In a secret setup the seat's hand is its tray: the pieces it
// has still to place on its half (setup.ts), with what is left said beside them and a button to
// put a placed piece back; the opponent's strip is hidden, as nothing of its army is shown.

import { pieceIcon, roleName } from "./board.js";
import { type Pocket, type PocketRole, type Sides, parseUci } from "./chess.js";
import { h } from "./dom.js";
import type { Geometry } from "./geometry.js";
import type { MoveNotation } from "./gen/chessd/v1/chessd_pb.js";
import { CHESS_SET, type PieceSet } from "./pieces.js";

export interface PocketView {
  white: boolean;
  pocket: Pocket;
  /** The pieces a hand holds in this game, in the order shown (games.ts). */
  roles: string;
  /** What the game's letters are, for drawing and naming them. */
  set?: PieceSet;
  /** This hand is at the top of the board (its shogi pieces point down). */
  top?: boolean;
  /** The player's own pocket: its pieces are buttons. */
  own: boolean;
  /** The roles the player can drop now (empty when it is not their move). */
  droppable: ReadonlySet<PocketRole>;
  /** The role picked up from it. */
  picked: PocketRole | null;
  /** A secret setup's tray (the own hand only), or undefined for a hand. */
  tray?: TrayView;
}

/** What a tray shows besides its pieces. */
export interface TrayView {
  /** What is left to place, or what the server will refuse (placement.ts). */
  note: string;
  /** A placed piece is picked up: "Back to tray" takes it. */
  lifting: boolean;
}

/** "White's pocket: 2 pawns, 1 knight", "Black's pocket: empty". */
export function pocketText(
  white: boolean,
  pocket: Pocket,
  roles: string,
  set: PieceSet = CHESS_SET,
): string {
  const count = (r: string) => pocket[r] ?? 0;
  const held = allRoles(pocket, roles)
    .filter((r) => count(r) > 0)
    .map((r) => `${count(r)} ${roleName(r, count(r), set)}`);
  return `${white ? "White" : "Black"}'s pocket: ${held.join(", ") || "empty"}`;
}

/** Fills `node` (kept, so a pointer captured by it survives) with one side's pocket. */
export function renderPocket(node: HTMLElement, v: PocketView): void {
  const side = v.white ? "white" : "black";
  node.dataset.color = side;
  node.setAttribute("role", "group");
  const name = v.tray ? "Your pieces to place" : `${v.white ? "White" : "Black"}'s pocket`;
  node.setAttribute("aria-label", name);
  node.classList.toggle("tray", !!v.tray);
  const set = v.set ?? CHESS_SET;
  const items = allRoles(v.pocket, v.roles).map((role) => {
    const count = v.pocket[role] ?? 0;
    const piece = v.white ? role.toUpperCase() : role;
    const label = `${count} ${roleName(role, count, set)}`;
    // Drawn as the board would draw it with this hand's owner at the top or the bottom.
    const flipped = (v.top ?? false) === v.white;
    const content = [
      pieceIcon(piece, set, flipped),
      h("span", { class: "count", "aria-hidden": "true" }, String(count)),
    ];
    const attrs = { class: "pocket-piece", "data-role": role, "data-count": String(count) };
    if (!v.own) return h("span", { ...attrs, title: label }, ...content);
    const b = h(
      "button",
      {
        ...attrs,
        type: "button",
        "aria-label": v.tray
          ? `Place a ${roleName(role, 1, set)} (${count} left in your tray)`
          : `Drop a ${roleName(role, 1, set)} (${count} in your pocket)`,
        "aria-pressed": String(v.picked === role),
      },
      ...content,
    );
    b.disabled = count === 0 || !v.droppable.has(role);
    return b;
  });
  if (v.tray) {
    const back = h(
      "button",
      { type: "button", class: "tray-back", "data-unplace": "" },
      "Back to tray",
    );
    back.disabled = !v.tray.lifting;
    // Not a live region: each placement is said once, by the game's announcer (game.ts).
    node.replaceChildren(
      ...items,
      back,
      h("span", { class: "tray-note", "data-tray-note": side }, v.tray.note),
    );
    return;
  }
  node.replaceChildren(
    h(
      "span",
      { class: "visually-hidden", "data-pocket-text": side },
      pocketText(v.white, v.pocket, v.roles, set),
    ),
    ...items,
  );
}

/** The game's hand pieces, then any other the pocket holds (a FEN may name more). */
function allRoles(pocket: Pocket, roles: string): string[] {
  const extra = Object.keys(pocket).filter((r) => !roles.includes(r) && (pocket[r] ?? 0) > 0);
  return [...roles, ...extra.sort()];
}

/** What both pockets show: the position's, and what the seat may pick from its own. */
export interface PocketsView {
  /** The position's pockets; null outside Crazyhouse (the strips are hidden). */
  pockets: Sides<Pocket> | null;
  /** The pieces a hand holds in this game, in the order shown. */
  roles: string;
  /** What the game's letters are. */
  set: PieceSet;
  /** The game's board, for the drops' squares. */
  geo: Geometry;
  /** White's pocket is below the board. */
  bottomWhite: boolean;
  /** The seat's side: true for White, false for Black; null for a spectator. */
  own: boolean | null;
  /** The moves the seat may play now (none when it may not move). */
  legal: readonly MoveNotation[];
  picked: PocketRole | null;
  /** A secret setup: the own pocket is the tray, the other strip hidden. */
  tray?: TrayView;
}

/** The two pocket strips, above and below the board. */
export class PocketStrips {
  #top: HTMLElement;
  #bottom: HTMLElement;
  /** The last drawing: redrawn only when it changes, as a redraw takes a button's focus. */
  #key = "";

  constructor(top: HTMLElement, bottom: HTMLElement) {
    this.#top = top;
    this.#bottom = bottom;
  }

  update(v: PocketsView): void {
    const droppable = new Set<PocketRole>();
    for (const m of v.legal) {
      const parts = parseUci(m.uci, v.geo);
      if (parts?.kind === "drop") droppable.add(parts.role);
    }
    const key = JSON.stringify([
      v.pockets,
      v.roles,
      Object.keys(v.set),
      v.bottomWhite,
      v.own,
      [...droppable],
      v.picked,
      v.tray,
    ]);
    if (key === this.#key) return;
    this.#key = key;
    const pockets = v.pockets;
    for (const [node, white, top] of [
      [this.#bottom, v.bottomWhite, false],
      [this.#top, !v.bottomWhite, true],
    ] as const) {
      const own = v.own === white;
      node.hidden = !pockets || (!!v.tray && !own);
      if (node.hidden || !pockets) continue;
      const focused = node.contains(document.activeElement)
        ? (document.activeElement as HTMLElement).dataset.role
        : undefined;
      renderPocket(node, {
        white,
        pocket: white ? pockets.white : pockets.black,
        roles: v.roles,
        set: v.set,
        top,
        own,
        droppable: own ? droppable : new Set(),
        picked: own ? v.picked : null,
        tray: own ? v.tray : undefined,
      });
      if (focused) node.querySelector<HTMLElement>(`[data-role="${focused}"]`)?.focus();
    }
  }
}
