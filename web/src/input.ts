// How a player picks a move on the board: click the piece then its square, or drag it; from
// the keyboard, arrows move a cursor and Enter or Space pick; a picker offers the promotions.
// In Crazyhouse a piece is picked from the player's pocket the same ways (click, drag, or
// Enter on it) and put on a square. Only the server's legal moves can be picked (moves.ts
// says which a pick makes), and their targets are marked. Where a shogi piece may promote or
// not (both `x` and `x+` are legal), the picker asks which. In Ambiguous Chess a turn is picked
// in two parts (turns.ts): the opponent's piece onto the pending target, then the player's mark.
// In a secret setup (setup.ts) the pocket is the seat's tray and the moves are placements on the
// own half: a placed piece picked up goes back to the tray by a press on the tray, a drag onto
// it, or Delete.

import { type TargetKind, pieceIcon, pieceName, pieceNode, roleName, squareAt } from "./board.js";
import { type Board, type PocketRole, parseUci } from "./chess.js";
import { h } from "./dom.js";
import type { Geometry } from "./geometry.js";
import type { MoveNotation } from "./gen/chessd/v1/chessd_pb.js";
import { type Pick, movesOf, samePick, targetKinds } from "./moves.js";
import type { PieceSet } from "./pieces.js";
import { executionAlone, executions, marksAfter, twoPart } from "./turns.js";

/** What the input needs from the game view. */
export interface MoveSource {
  /** The position the player may move in now, or null when they may not move. */
  board(): Board | null;
  /** The position on the screen (another ply's, when the player steps through the game). */
  shown(): Board;
  /** The server's legal moves in that position. */
  legal(): readonly MoveNotation[];
  /** The game's board. */
  geometry(): Geometry;
  /** What a pawn may become, in the picker's order (see games.ts). */
  promotions(): string;
  /** What each piece letter is in the game (games.ts), for drawing and naming pieces. */
  pieces(): PieceSet;
  flipped(): boolean;
  /** The player's own pieces are upper case (White) or lower case (Black). */
  white(): boolean;
  /** The player chose `move` (one of `legal()`). */
  play(move: MoveNotation): void;
  /**
   * Redraw the board and pockets with `marks()`; after a drag (`moved`) even when they are
   * unchanged, to put the dragged piece back.
   */
  redraw(moved?: boolean): void;
  /** Say something to screen readers. */
  announce(text: string): void;
  /** A secret setup is being placed: the pocket is the tray. */
  placing?(): boolean;
  /** A setup's piece on `square` goes back to the tray; false when none can. */
  unplace?(square: number): boolean;
}


/** A pointer this far (CSS px) from where it went down is dragging, not clicking. */
const DRAG_THRESHOLD_PX = 4;

/** Beyond this many targets the screen reader hears their number, not each square. */
const TARGETS_READ_OUT = 10;

interface Drag {
  pointerId: number;
  pick: Pick;
  /** The element holding the pointer capture: the board box or a pocket. */
  owner: HTMLElement;
  x0: number;
  y0: number;
  moving: boolean;
  /** The press picked up what was already picked: releasing without moving puts it down. */
  toggle: boolean;
}


export class MoveInput {
  #box: HTMLElement;
  #src: MoveSource;
  #picked: Pick | null = null;
  #cursor: number | null = null;
  #keyboard = false;
  #drag: Drag | null = null;
  #picker: HTMLElement | null = null;
  /** Ambiguous Chess: the execution chosen among `legal`, the turns it was chosen from. */
  #executed: { legal: readonly MoveNotation[]; execution: string } | null = null;
  /** The pockets attached, where a setup's piece dragged is put back in the tray. */
  #pockets: HTMLElement[] = [];

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

  /**
   * Takes the pieces of a pocket drawn in `node` (`[data-role]` buttons, see pocket.ts): a
   * press picks one up to click or drag onto the board, Enter or Space picks it for the
   * keyboard's cursor.
   */
  attachPocket(node: HTMLElement): void {
    this.#pockets.push(node);
    node.addEventListener("pointerdown", (e) => this.#pocketDown(e, node));
    node.addEventListener("pointermove", (e) => this.#move(e));
    node.addEventListener("pointerup", (e) => this.#up(e));
    node.addEventListener("pointercancel", () => this.#cancel());
    node.addEventListener("click", (e) => {
      // A pointer's press was handled on pointerdown; `detail` is 0 for Enter and Space.
      if (e.detail !== 0) return;
      if (this.#unplace(true)) return;
      const role = this.#roleAt(e.target);
      if (role) this.#pickFromPocket(role, true);
    });
  }

  /** The marks the board shows for the input now, and the pocket piece picked. */
  marks(): {
    selected: number | null;
    targets: Map<number, TargetKind>;
    cursor: number | null;
    pocketRole: PocketRole | null;
    /** Ambiguous Chess: the execution chosen, drawn as made while the player marks. */
    executed: string | null;
  } {
    const board = this.#src.board();
    const pick = board ? this.#picked : null;
    const focused = document.activeElement === this.#box && this.#keyboard;
    const execution = board ? this.#execution() : null;
    if (board && execution !== null) {
      const targets = new Map<number, TargetKind>();
      for (const sq of marksAfter(this.#src.legal(), execution, this.#src.geometry()).keys()) {
        targets.set(sq, "move");
      }
      return {
        selected: null,
        targets,
        cursor: focused ? this.#cursor : null,
        pocketRole: null,
        executed: execution || null,
      };
    }
    return {
      executed: null,
      selected: pick?.kind === "square" ? pick.square : null,
      targets:
        pick && board
          ? targetKinds(board, pick, this.#moves(board, pick), this.#src.geometry())
          : new Map(),
      cursor: focused ? this.#cursor : null,
      pocketRole: pick?.kind === "pocket" ? pick.role : null,
    };
  }

  /** Forgets the picked piece and closes the picker (the position changed). */
  reset(): void {
    this.#picked = null;
    this.#executed = null;
    this.#drag = null;
    this.#closePicker();
  }

  #moves(board: Board, pick: Pick): Map<number, MoveNotation[]> {
    return movesOf(board, this.#legal(), pick, this.#src.geometry());
  }

  /**
   * Ambiguous Chess: the execution of the turn the player is marking now ("" on a turn that
   * only marks), or null while an execution is still to be chosen (and in every other game).
   */
  #execution(): string | null {
    const legal = this.#src.legal();
    if (!twoPart(legal)) return null;
    if (this.#executed?.legal === legal) return this.#executed.execution;
    return executions(legal).length === 0 ? "" : null;
  }

  /** The moves a piece picked up chooses among: in Ambiguous Chess, the executions. */
  #legal(): readonly MoveNotation[] {
    const legal = this.#src.legal();
    if (!twoPart(legal)) return legal;
    return this.#execution() === null ? executions(legal) : [];
  }

  /** The player chose `m`: the move, or in Ambiguous Chess the execution to mark after. */
  #commit(m: MoveNotation): void {
    this.#picked = null;
    const legal = this.#src.legal();
    if (!twoPart(legal)) {
      this.#src.play(m);
      return;
    }
    const alone = executionAlone(legal, m.uci);
    if (alone) {
      this.#src.play(alone);
      return;
    }
    this.#executed = { legal, execution: m.uci };
    this.#src.redraw();
    const marks = [...marksAfter(legal, m.uci, this.#src.geometry()).keys()];
    this.#src.announce(
      `${m.uci} chosen: now mark your target, any of ${marks.length} squares. Escape chooses again.`,
    );
  }

  #name(sq: number): string {
    return this.#src.geometry().name(sq);
  }

  #svg(): Element | null {
    return this.#box.querySelector("svg.board");
  }

  #roleAt(target: EventTarget | null): PocketRole | null {
    const button = (target as Element | null)?.closest<HTMLButtonElement>("button[data-role]");
    return button && !button.disabled ? (button.dataset.role as PocketRole) : null;
  }

  /** A press or Enter on `sq`: move there, pick the piece up, or put it down. */
  #act(sq: number): "moved" | "picked" | "dropped" {
    const board = this.#src.board();
    if (!board) return "dropped";
    const execution = this.#execution();
    if (execution !== null) {
      const turn = marksAfter(this.#src.legal(), execution, this.#src.geometry()).get(sq);
      if (turn) {
        this.#executed = null;
        this.#picked = null;
        this.#src.play(turn);
        return "moved";
      }
      if (execution === "") return "dropped";
      // Off the marks: the execution is chosen again, starting with this square.
      this.#executed = null;
    }
    const pick = this.#picked;
    if (pick && !samePick(pick, { kind: "square", square: sq })) {
      const options = this.#moves(board, pick).get(sq);
      if (options) {
        this.#choose(options, sq);
        return "moved";
      }
    }
    if (this.#moves(board, { kind: "square", square: sq }).size) {
      this.#picked = { kind: "square", square: sq };
      this.#src.redraw();
      return "picked";
    }
    this.#picked = null;
    this.#src.redraw();
    return "dropped";
  }

  /** The player puts the picked piece on `to`: at once, or after picking a promotion. */
  #choose(options: MoveNotation[], to: number): void {
    if (options.length === 1 && options[0]) {
      this.#commit(options[0]);
      return;
    }
    this.#openPicker(options, to);
  }

  /** Picks `role` from the player's pocket; from the keyboard, the board takes the focus. */
  #pickFromPocket(role: PocketRole, keyboard: boolean): boolean {
    const board = this.#src.board();
    if (!board) return false;
    const pick: Pick = { kind: "pocket", role };
    const targets = this.#moves(board, pick);
    if (!targets.size) return false;
    this.#picked = pick;
    if (keyboard) {
      this.#keyboard = true;
      this.#cursor ??= this.#home();
      this.#box.focus();
      const squares = [...targets.keys()].map((sq) => this.#name(sq));
      const where =
        squares.length > TARGETS_READ_OUT
          ? `any of ${squares.length} squares`
          : squares.join(", ");
      const hand = this.#src.placing?.() ? "tray" : "pocket";
      this.#src.announce(
        `${roleName(role, 1, this.#src.pieces())} from your ${hand} picked up: it can go to ${where}. ` +
          "Arrow keys to a square, Enter to put it there, Escape to put it back.",
      );
    }
    this.#src.redraw();
    return true;
  }

  #openPicker(options: MoveNotation[], to: number): void {
    this.#closePicker();
    // The promoting pawn's colour: in Ambiguous Chess the player promotes the opponent's pawn.
    const at = this.#picked?.kind === "square" ? this.#picked.square : -1;
    const promoting = this.#src.board()?.[at] ?? "";
    const white = promoting ? promoting !== promoting.toLowerCase() : this.#src.white();
    const order = this.#src.promotions();
    const set = this.#src.pieces();
    // The picker offers exactly the legal moves' promotions (Grand Chess's only the pieces a
    // side has lost), and "" where a pawn may also stay a pawn (Grand's ranks 8 and 9).
    const roleOf = (m: MoveNotation) => {
      const parts = parseUci(m.uci, this.#src.geometry());
      return parts?.kind === "move" ? parts.promotion : "";
    };
    // A piece the game's order does not list goes last, staying a pawn after it.
    const rank = (m: MoveNotation) => {
      const role = roleOf(m);
      if (role === "") return order.length + 1;
      const at = order.indexOf(role);
      return at < 0 ? order.length : at;
    };
    const sorted = [...options].sort((a, b) => rank(a) - rank(b));
    // Shogi's choice is to turn the piece over or not: the piece itself, promoted or as it is.
    const turning = options.some((m) => roleOf(m) === "+");
    const from = this.#picked?.kind === "square" ? this.#picked.square : -1;
    const mover = (this.#src.board()?.[from] ?? "").toLowerCase();
    const buttons = sorted.map((m) => {
      const role = roleOf(m);
      const shown = turning ? (role === "+" ? `+${mover}` : mover) : role || "p";
      const name = turning
        ? role === "+"
          ? `promote to ${roleName(shown, 1, set)}`
          : `stay a ${roleName(shown, 1, set)}`
        : role
          ? roleName(role, 1, set)
          : "stay a pawn";
      const b = h(
        "button",
        { type: "button", "data-promotion": role },
        pieceIcon(white ? shown.toUpperCase() : shown, set, this.#src.flipped()),
        h("span", {}, name[0]?.toUpperCase() + name.slice(1)),
      );
      b.addEventListener("click", () => {
        this.#closePicker();
        this.#commit(m);
      });
      return b;
    });
    const cancel = h("button", { type: "button", class: "cancel" }, "Cancel");
    cancel.addEventListener("click", () => this.#cancelPicker());
    const question = turning ? `Promote on ${this.#name(to)}?` : `Promote on ${this.#name(to)} to`;
    const picker = h(
      "div",
      {
        class: "promotion",
        id: "promotion",
        role: "dialog",
        "aria-label": question,
      },
      h("p", {}, question),
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
    this.#picked = null;
    // The pawn may have been dragged to the last rank.
    this.#src.redraw(true);
    this.#box.focus();
  }

  #closePicker(): void {
    this.#picker?.remove();
    this.#picker = null;
  }

  #startDrag(e: PointerEvent, pick: Pick, owner: HTMLElement, toggle: boolean): void {
    this.#drag = {
      pointerId: e.pointerId,
      pick,
      owner,
      x0: e.clientX,
      y0: e.clientY,
      moving: false,
      toggle,
    };
    owner.setPointerCapture(e.pointerId);
  }

  #down(e: PointerEvent): void {
    const svg = this.#svg();
    if (!svg || e.button !== 0 || !this.#src.board() || this.#picker) return;
    const sq = squareAt(svg, this.#src.geometry(), e.clientX, e.clientY, this.#src.flipped());
    if (sq < 0) return;
    e.preventDefault();
    // The keyboard's square stays where the keys left it.
    this.#keyboard = false;
    const pick: Pick = { kind: "square", square: sq };
    const toggle = samePick(this.#picked, pick);
    if (this.#act(sq) !== "picked") return;
    this.#startDrag(e, pick, this.#box, toggle);
  }

  #pocketDown(e: PointerEvent, pocket: HTMLElement): void {
    if (e.button === 0 && !this.#picker && this.#unplace(false)) {
      e.preventDefault();
      return;
    }
    const role = this.#roleAt(e.target);
    if (!role || e.button !== 0 || this.#picker) return;
    e.preventDefault();
    this.#keyboard = false;
    const pick: Pick = { kind: "pocket", role };
    const toggle = samePick(this.#picked, pick);
    if (!this.#pickFromPocket(role, false)) return;
    this.#startDrag(e, pick, pocket, toggle);
  }

  #move(e: PointerEvent): void {
    const drag = this.#drag;
    const svg = this.#svg();
    if (!drag || e.pointerId !== drag.pointerId || !svg) return;
    if (!drag.moving) {
      if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < DRAG_THRESHOLD_PX) return;
      drag.moving = true;
      const piece =
        drag.pick.kind === "square"
          ? svg.querySelector(`.piece[data-square="${this.#name(drag.pick.square)}"]`)
          : pieceNode(
              this.#src.white() ? drag.pick.role.toUpperCase() : drag.pick.role,
              0,
              0,
              this.#src.pieces(),
              this.#src.flipped(),
            );
      if (piece) {
        piece.classList.add("dragging");
        // Last in the document: drawn over the other pieces and the marks.
        svg.append(piece);
      }
    }
    const piece = svg.querySelector(".piece.dragging");
    const box = svg.getBoundingClientRect();
    const [width, height] = this.#src.geometry().extent;
    const x = ((e.clientX - box.left) / box.width) * width - 50;
    const y = ((e.clientY - box.top) / box.height) * height - 50;
    piece?.setAttribute("transform", `translate(${x} ${y})`);
  }

  #up(e: PointerEvent): void {
    const drag = this.#drag;
    const svg = this.#svg();
    if (!drag || e.pointerId !== drag.pointerId || !svg) return;
    this.#drag = null;
    if (drag.moving && this.#overPocket(e) && this.#unplace(false)) {
      this.#src.redraw(true);
      return;
    }
    const sq = squareAt(svg, this.#src.geometry(), e.clientX, e.clientY, this.#src.flipped());
    const board = this.#src.board();
    const from = drag.pick.kind === "square" ? drag.pick.square : -1;
    if (drag.moving) {
      const options =
        board && sq >= 0 && sq !== from ? this.#moves(board, drag.pick).get(sq) : null;
      if (options) {
        this.#choose(options, sq);
        return;
      }
      // Dropped off its targets: back to its square (or pocket); still picked only if dropped
      // on its own square.
      if (sq !== from || from < 0) this.#picked = null;
      this.#src.redraw(true);
      return;
    }
    if (drag.toggle) {
      this.#picked = null;
      this.#src.redraw();
    }
  }

  /** Whether a pointer is over one of the pockets. */
  #overPocket(e: PointerEvent): boolean {
    return this.#pockets.some((node) => {
      const r = node.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right;
      return !node.hidden && inside && e.clientY >= r.top && e.clientY <= r.bottom;
    });
  }

  /**
   * A secret setup: the piece picked up on the board goes back to the tray (from the keyboard,
   * the board keeps the focus). False when no placed piece is picked up.
   */
  #unplace(keyboard: boolean): boolean {
    const pick = this.#picked;
    if (pick?.kind !== "square" || !this.#src.board()) return false;
    const what = this.#describe(pick.square);
    if (!this.#src.unplace?.(pick.square)) return false;
    this.#picked = null;
    if (keyboard) {
      this.#keyboard = true;
      this.#cursor = pick.square;
      this.#box.focus();
    }
    this.#src.redraw();
    this.#src.announce(`${what}: back in your tray`);
    return true;
  }

  #cancel(): void {
    const moved = this.#drag?.moving ?? false;
    this.#drag = null;
    this.#src.redraw(moved);
  }

  #describe(sq: number): string {
    const piece = this.#src.shown()[sq] ?? "";
    return `${this.#name(sq)}, ${piece ? pieceName(piece, this.#src.pieces()) : "empty"}`;
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
      const geo = this.#src.geometry();
      const file = Math.max(0, Math.min(geo.files - 1, geo.fileOf(at) + step[0]));
      const rank = Math.max(0, Math.min(geo.ranks - 1, geo.rankOf(at) + step[1]));
      this.#cursor = geo.index(file, rank);
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
      if (samePick(this.#picked, { kind: "square", square: sq })) {
        this.#picked = null;
        this.#src.redraw();
        this.#src.announce("Put down");
        return;
      }
      const result = this.#act(sq);
      if (result === "picked") {
        const board = this.#src.board() ?? [];
        const targets = [...this.#moves(board, { kind: "square", square: sq }).keys()];
        const where =
          targets.length > TARGETS_READ_OUT
            ? `any of ${targets.length} squares`
            : targets.map((s) => this.#name(s)).join(", ");
        const back = this.#src.placing?.() ? "; Delete puts it back in your tray" : "";
        this.#src.announce(`${this.#describe(sq)} picked up: it can go to ${where}${back}`);
      } else if (result === "dropped") {
        this.#src.announce(`Nothing picked up on ${this.#name(sq)}`);
      }
      return;
    }
    if ((e.key === "Delete" || e.key === "Backspace") && this.#src.placing?.()) {
      e.preventDefault();
      e.stopPropagation();
      this.#keyboard = true;
      // The piece picked up, else the one under the cursor.
      const sq = this.#picked?.kind === "square" ? this.#picked.square : this.#cursor;
      if (sq !== null) this.#picked = { kind: "square", square: sq };
      if (!this.#unplace(true)) {
        this.#picked = null;
        this.#src.announce("Nothing of yours to put back here");
      }
      return;
    }
    if (e.key === "Escape" && this.#executed !== null) {
      e.preventDefault();
      e.stopPropagation();
      this.#executed = null;
      this.#src.redraw();
      this.#src.announce("Execution taken back: choose it again");
      return;
    }
    if (e.key === "Escape" && this.#picked !== null) {
      e.preventDefault();
      e.stopPropagation();
      this.#picked = null;
      this.#src.redraw();
      this.#src.announce("Put down");
    }
  }

  /** Where the cursor starts: on the player's king, or the middle of their first rank. */
  #home(): number {
    const king = this.#src.white() ? "K" : "k";
    const at = this.#src.shown().indexOf(king);
    const geo = this.#src.geometry();
    const middle = Math.floor(geo.files / 2);
    return at >= 0 ? at : geo.index(middle, this.#src.white() ? 0 : geo.ranks - 1);
  }
}
