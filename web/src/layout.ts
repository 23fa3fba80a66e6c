// The game view's elements and where they stand: the board column (clocks, pockets, board,
// its note and the step buttons) and the side column (seat, connection, result, draw offer,
// the player's buttons and move form, the move list). Their ids are what the stylesheet and the
// browser test address; game.ts fills them.

import { h } from "./dom.js";

export type Step = "first" | "prev" | "next" | "last";

export interface GameLayout {
  title: HTMLElement;
  seatLine: HTMLElement;
  boardBox: HTMLElement;
  clockTop: HTMLElement;
  clockBottom: HTMLElement;
  pocketTop: HTMLElement;
  pocketBottom: HTMLElement;
  boardNote: HTMLElement;
  result: HTMLElement;
  offer: HTMLElement;
  /** The first-move timer's countdown, while it runs. */
  firstMove: HTMLElement;
  conn: HTMLElement;
  moves: HTMLElement;
  announce: HTMLElement;
  playMessage: HTMLElement;
  flip: HTMLButtonElement;
  moveText: HTMLInputElement;
  moveForm: HTMLFormElement;
}

/**
 * Builds the view of game `id` into `main`; `actions` is the player's button bar (none for a
 * spectator), `step` what the step buttons do.
 */
export function gameLayout(
  main: HTMLElement,
  id: string,
  actions: HTMLElement | null,
  step: (where: Step) => void,
): GameLayout {
  const pocket = (where: string) => {
    const node = h("div", { class: "pocket", id: `pocket-${where}` });
    // Shown only in Crazyhouse.
    node.hidden = true;
    return node;
  };
  const l: GameLayout = {
    title: h("h2", { id: "game-title" }, `Game ${id}`),
    seatLine: h("p", { id: "seat", class: "seat", role: "status" }),
    boardBox: h("div", { class: "board-box", id: "board" }),
    clockTop: h("div", { class: "clock", id: "clock-top" }),
    clockBottom: h("div", { class: "clock", id: "clock-bottom" }),
    pocketTop: pocket("top"),
    pocketBottom: pocket("bottom"),
    boardNote: h("p", { class: "board-note", id: "board-note", role: "status" }),
    result: h("p", { id: "result", class: "result", role: "status" }),
    offer: h("p", { id: "draw-offer", class: "offer", role: "status" }),
    firstMove: h("p", { id: "first-move", class: "offer", role: "timer" }),
    conn: h("p", { id: "connection", class: "connection", role: "status" }),
    moves: h("ol", { id: "moves", class: "moves", "aria-label": "Moves" }),
    announce: h("p", { class: "visually-hidden", "aria-live": "polite" }),
    playMessage: h("p", { id: "play-message", class: "play-message", role: "alert" }),
    flip: h("button", { type: "button", id: "flip", "aria-pressed": "false" }, "Flip board"),
    moveText: h("input", {
      id: "move-input",
      name: "move",
      autocomplete: "off",
      spellcheck: "false",
      autocapitalize: "off",
    }),
    moveForm: h("form", { id: "move-form", class: "move-form" }),
  };
  l.moveForm.append(
    h("label", { for: "move-input" }, "Type a move"),
    l.moveText,
    h("button", { type: "submit" }, "Play"),
  );
  l.moveForm.hidden = true;
  const nav = (label: string, text: string, where: Step) => {
    const b = h("button", { type: "button", "aria-label": label, title: label }, text);
    b.addEventListener("click", () => step(where));
    return b;
  };
  const controls = h(
    "div",
    { class: "controls" },
    nav("First position", "«", "first"),
    nav("Previous move", "‹", "prev"),
    nav("Next move", "›", "next"),
    nav("Latest move", "»", "last"),
    l.flip,
  );
  const sideCol = h("div", { class: "side-col" }, l.seatLine, l.conn, l.result, l.offer, l.firstMove);
  l.firstMove.hidden = true;
  if (actions) sideCol.append(actions, l.moveForm, l.playMessage);
  sideCol.append(l.moves, l.announce);
  main.append(
    h("p", {}, h("a", { href: "#/" }, "← All games")),
    l.title,
    h(
      "div",
      { class: "game" },
      h(
        "div",
        { class: "board-col" },
        l.clockTop,
        l.pocketTop,
        l.boardBox,
        l.pocketBottom,
        l.clockBottom,
        l.boardNote,
        controls,
      ),
      sideCol,
    ),
  );
  return l;
}
