// How a player picks a move on the board: click the piece then its square, or drag it; from
// the keyboard, arrows move a cursor and Enter or Space pick; a picker offers the promotions.
// Only the server's legal moves can be picked, and their targets are marked. Typed moves (SAN
// or UCI) are matched against the same list.

import { pieceIcon, pieceName, squareAt } from "./board.js";
import { type Board, squareIndex, squareName } from "./chess.js";
import { h } from "./dom.js";
import type { MoveNotation } from "./gen/chessd/v1/chessd_pb.js";

/** What the input needs from the game view. */
export interface MoveSource {
  /** The position the player may move in now, or null when they may not move. */
  board(): Board | null;
  /** The position on the screen (another ply's, when the player steps through the game). */
  shown(): Board;
  /** The server's legal moves in that position. */
  legal(): readonly MoveNotation[];
  flipped(): boolean;
  /** The player's own pieces are upper case (White) or lower case (Black). */
  white(): boolean;
  /** The player chose `move` (one of `legal()`). */
  play(move: MoveNotation): void;
  /**
   * Redraw the board with `marks()`; after a drag (`moved`) even when they are unchanged, to put
   * the dragged piece back.
   */
  redraw(moved?: boolean): void;
  /** Say something to screen readers. */
  announce(text: string): void;
}

const PROMOTION_ORDER = "qrbnk";
const PROMOTION_NAMES: Record<string, string> = {
  q: "Queen",
  r: "Rook",
  b: "Bishop",
  n: "Knight",
  k: "King",
};

/** A pointer this far (CSS px) from where it went down is dragging, not clicking. */
const DRAG_THRESHOLD_PX = 4;

interface Drag {
  pointerId: number;
  from: number;
  x0: number;
  y0: number;
  moving: boolean;
  /** The press picked up the piece that was already picked: releasing without moving drops it. */
  toggle: boolean;
}

export class MoveInput {
  #box: HTMLElement;
  #src: MoveSource;
  #selected: number | null = null;
  #cursor: number | null = null;
  #keyboard = false;
  #drag: Drag | null = null;
  #picker: HTMLElement | null = null;

  constructor(box: HTMLElement, src: MoveSource) {
    this.#box = box;
    this.#src = src;
    box.addEventListener("pointerdown", (e) => this.#down(e));
    box.addEventListener("pointermove", (e) => this.#move(e));
    box.addEventListener("pointerup", (e) => this.#up(e));
    box.addEventListener("pointercancel", () => this.#cancel());
    box.addEventListener("keydown", (e) => this.#key(e));
    box.addEventListener("focus", () => this.#src.redraw());
    box.addEventListener("blur", () => this.#src.redraw());
  }

  /** The marks the board shows for the input now. */
  marks(): { selected: number | null; targets: Map<number, boolean>; cursor: number | null } {
    const board = this.#src.board();
    const selected = board ? this.#selected : null;
    const focused = document.activeElement === this.#box && this.#keyboard;
    return {
      selected,
      targets: selected === null || !board ? new Map() : this.#targets(board, selected),
      cursor: focused ? this.#cursor : null,
    };
  }

  /** Forgets the picked piece and closes the picker (the position changed). */
  reset(): void {
    this.#selected = null;
    this.#drag = null;
    this.#closePicker();
  }

  #movesFrom(from: number): MoveNotation[] {
    const name = squareName(from);
    return this.#src.legal().filter((m) => m.uci.startsWith(name));
  }

  #targets(board: Board, from: number): Map<number, boolean> {
    const targets = new Map<number, boolean>();
    const pawn = board[from]?.toLowerCase() === "p";
    for (const m of this.#movesFrom(from)) {
      const to = squareIndex(m.uci.slice(2, 4));
      // En passant takes on an empty square.
      targets.set(to, board[to] !== "" || (pawn && to % 8 !== from % 8));
    }
    return targets;
  }

  #svg(): Element | null {
    return this.#box.querySelector("svg.board");
  }

  /** A press or Enter on `sq`: move there, pick the piece up, or put it down. */
  #act(sq: number): "moved" | "picked" | "dropped" {
    const board = this.#src.board();
    if (!board) return "dropped";
    if (
      this.#selected !== null &&
      this.#selected !== sq &&
      this.#targets(board, this.#selected).has(sq)
    ) {
      this.#choose(this.#selected, sq);
      return "moved";
    }
    if (this.#movesFrom(sq).length) {
      this.#selected = sq;
      this.#src.redraw();
      return "picked";
    }
    this.#selected = null;
    this.#src.redraw();
    return "dropped";
  }

  /** The player moves the piece on `from` to `to`: at once, or after picking a promotion. */
  #choose(from: number, to: number): void {
    const options = this.#movesFrom(from).filter((m) => m.uci.slice(2, 4) === squareName(to));
    if (options.length === 1 && options[0]) {
      this.#selected = null;
      this.#src.play(options[0]);
      return;
    }
    this.#openPicker(options, to);
  }

  #openPicker(options: MoveNotation[], to: number): void {
    this.#closePicker();
    const white = this.#src.white();
    const sorted = [...options].sort(
      (a, b) => PROMOTION_ORDER.indexOf(a.uci[4] ?? "") - PROMOTION_ORDER.indexOf(b.uci[4] ?? ""),
    );
    const buttons = sorted.map((m) => {
      const role = m.uci[4] ?? "q";
      const b = h(
        "button",
        { type: "button", "data-promotion": role },
        pieceIcon(white ? role.toUpperCase() : role),
        h("span", {}, PROMOTION_NAMES[role] ?? role),
      );
      b.addEventListener("click", () => {
        this.#closePicker();
        this.#selected = null;
        this.#src.play(m);
      });
      return b;
    });
    const cancel = h("button", { type: "button", class: "cancel" }, "Cancel");
    cancel.addEventListener("click", () => this.#cancelPicker());
    const picker = h(
      "div",
      {
        class: "promotion",
        id: "promotion",
        role: "dialog",
        "aria-label": `Promote on ${squareName(to)} to`,
      },
      h("p", {}, `Promote on ${squareName(to)} to`),
      h("div", { class: "choices" }, ...buttons),
      cancel,
    );
    picker.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Escape") this.#cancelPicker();
    });
    this.#picker = picker;
    this.#box.append(picker);
    buttons[0]?.focus();
  }

  #cancelPicker(): void {
    this.#closePicker();
    this.#selected = null;
    // The pawn may have been dragged to the last rank.
    this.#src.redraw(true);
    this.#box.focus();
  }

  #closePicker(): void {
    this.#picker?.remove();
    this.#picker = null;
  }

  #down(e: PointerEvent): void {
    const svg = this.#svg();
    if (!svg || e.button !== 0 || !this.#src.board() || this.#picker) return;
    const sq = squareAt(svg, e.clientX, e.clientY, this.#src.flipped());
    if (sq < 0) return;
    e.preventDefault();
    // The keyboard's square stays where the keys left it.
    this.#keyboard = false;
    const toggle = this.#selected === sq;
    if (this.#act(sq) !== "picked") return;
    this.#drag = {
      pointerId: e.pointerId,
      from: sq,
      x0: e.clientX,
      y0: e.clientY,
      moving: false,
      toggle,
    };
    this.#box.setPointerCapture(e.pointerId);
  }

  #move(e: PointerEvent): void {
    const drag = this.#drag;
    const svg = this.#svg();
    if (!drag || e.pointerId !== drag.pointerId || !svg) return;
    if (!drag.moving) {
      if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < DRAG_THRESHOLD_PX) return;
      drag.moving = true;
      const piece = svg.querySelector(`.piece[data-square="${squareName(drag.from)}"]`);
      if (piece) {
        piece.classList.add("dragging");
        // Last in the document: drawn over the other pieces and the marks.
        svg.append(piece);
      }
    }
    const piece = svg.querySelector(".piece.dragging");
    const box = svg.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * 800 - 50;
    const y = ((e.clientY - box.top) / box.height) * 800 - 50;
    piece?.setAttribute("transform", `translate(${x} ${y})`);
  }

  #up(e: PointerEvent): void {
    const drag = this.#drag;
    const svg = this.#svg();
    if (!drag || e.pointerId !== drag.pointerId || !svg) return;
    this.#drag = null;
    const sq = squareAt(svg, e.clientX, e.clientY, this.#src.flipped());
    const board = this.#src.board();
    if (drag.moving) {
      if (board && sq >= 0 && sq !== drag.from && this.#targets(board, drag.from).has(sq)) {
        this.#choose(drag.from, sq);
        return;
      }
      // Dropped off its targets: back to its square; still picked only if dropped on it.
      if (sq !== drag.from) this.#selected = null;
      this.#src.redraw(true);
      return;
    }
    if (drag.toggle) {
      this.#selected = null;
      this.#src.redraw();
    }
  }

  #cancel(): void {
    const moved = this.#drag?.moving ?? false;
    this.#drag = null;
    this.#src.redraw(moved);
  }

  #describe(sq: number): string {
    const piece = this.#src.shown()[sq] ?? "";
    return `${squareName(sq)}, ${piece ? pieceName(piece) : "empty"}`;
  }

  #key(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey || this.#picker) return;
    const flip = this.#src.flipped() ? -1 : 1;
    const steps: Record<string, [number, number]> = {
      ArrowUp: [0, flip],
      ArrowDown: [0, -flip],
      ArrowLeft: [-flip, 0],
      ArrowRight: [flip, 0],
    };
    const step = steps[e.key];
    if (step) {
      e.preventDefault();
      e.stopPropagation();
      this.#keyboard = true;
      const at = this.#cursor ?? this.#home();
      const file = Math.max(0, Math.min(7, (at % 8) + step[0]));
      const rank = Math.max(0, Math.min(7, Math.floor(at / 8) + step[1]));
      this.#cursor = rank * 8 + file;
      this.#src.redraw();
      this.#src.announce(this.#describe(this.#cursor));
      return;
    }
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      this.#keyboard = true;
      const sq = this.#cursor ?? this.#home();
      this.#cursor = sq;
      if (!this.#src.board()) {
        this.#src.announce("You cannot move now.");
        return;
      }
      if (sq === this.#selected) {
        this.#selected = null;
        this.#src.redraw();
        this.#src.announce("Put down");
        return;
      }
      const result = this.#act(sq);
      if (result === "picked") {
        const board = this.#src.board() ?? [];
        const targets = [...this.#targets(board, sq).keys()].map(squareName).join(", ");
        this.#src.announce(`${this.#describe(sq)} picked up: it can go to ${targets}`);
      } else if (result === "dropped") {
        this.#src.announce(`Nothing picked up on ${squareName(sq)}`);
      }
      return;
    }
    if (e.key === "Escape" && this.#selected !== null) {
      e.preventDefault();
      e.stopPropagation();
      this.#selected = null;
      this.#src.redraw();
      this.#src.announce("Put down");
    }
  }

  /** Where the cursor starts: on the player's king. */
  #home(): number {
    const king = this.#src.white() ? "K" : "k";
    const at = this.#src.shown().indexOf(king);
    return at >= 0 ? at : this.#src.white() ? squareIndex("e1") : squareIndex("e8");
  }
}

/** SAN as a player may type it: without check marks, with "0-0" for "O-O", "e8Q" for "e8=Q". */
function normalSan(text: string): string {
  return text
    .trim()
    .replace(/[+#!?]+$/, "")
    .replace(/0/g, "O")
    .replace("=", "");
}

/** The legal move a typed text names (its UCI, or its SAN without check marks), or null. */
export function typedMove(text: string, legal: readonly MoveNotation[]): MoveNotation | null {
  const t = text.trim();
  const uci = t.toLowerCase();
  const san = normalSan(t);
  return legal.find((m) => m.uci === uci) ?? legal.find((m) => normalSan(m.san) === san) ?? null;
}
