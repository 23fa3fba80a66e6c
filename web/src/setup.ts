// Screen Chess's secret setup on the page: the seat's placement as the page builds it (by
// hand, piece by piece, or drawn at random) on its own half of the board, until it is sent as
// a draft or final; the server shows the seat only that half. A placement drawn at random keeps
// both games' rules: the back rank shuffled with the bishops on squares of both colours, and a
// pawn on every file on one of the three ranks before it.

import type { Board } from "./chess.js";
import { Color, type Setup, SetupState } from "./gen/chessd/v1/chessd_pb.js";
import {
  applyPlacement,
  boardOfRows,
  emptyBoard,
  halfRows,
  leftToPlace,
  lift,
} from "./placement.js";

/** The seat of `color` in `setup`. */
function seatOf(setup: Setup, color: Color) {
  return color === Color.WHITE ? setup.white : setup.black;
}

/** Whether `color` has still to make its placement final. */
export function mustPlace(setup: Setup | null, color: Color): boolean {
  if (!setup) return false;
  return seatOf(setup, color)?.state !== SetupState.FINAL;
}

/** The seat's placement as the server keeps it, draft or final ("" when it has none). */
export function placedOf(setup: Setup | null, color: Color): string {
  return setup ? (seatOf(setup, color)?.placement ?? "") : "";
}

/**
 * The placement the page builds for its seat: kept on the page, sent only by the player (a
 * seat may send at most 32), so the pieces placed one by one cost the server nothing.
 */
export class LocalPlacement {
  readonly color: Color;
  #board: Board = emptyBoard();
  /** The server's placement last adopted: the rows the page's placement started from. */
  #seed = "";
  #changed: () => void;

  /** `changed` hears of every change, to redraw. */
  constructor(color: Color, changed: () => void) {
    this.color = color;
    this.#changed = changed;
  }

  get board(): Board {
    return this.#board;
  }

  /**
   * Takes the server's placement for the seat (after a reload, or another tab's draft) unless
   * the player changed the page's since the last one it took: a hand's work is not replaced.
   */
  sync(server: string): void {
    if (server === this.#seed) return;
    const rows = (board: Board) => halfRows(board, this.color);
    const untouched = rows(this.#board) === rows(this.#rowsBoard(this.#seed));
    this.#seed = server;
    // Not heard as a change: the caller is drawing the state it came with.
    if (untouched) this.#board = this.#rowsBoard(server);
  }

  #rowsBoard(rows: string): Board {
    return (rows && boardOfRows(rows, this.color)) || emptyBoard();
  }

  #set(board: Board): void {
    this.#board = board;
    this.#changed();
  }

  /** Replaces the whole placement with four rows (a random draw); false if they do not read. */
  fill(rows: string): boolean {
    const board = boardOfRows(rows, this.color);
    if (board) this.#set(board);
    return !!board;
  }

  /** Puts every piece back in the tray. */
  clear(): void {
    this.#set(emptyBoard());
  }

  /** Plays a drop or move of `placements` (placement.ts); false for any other. */
  play(uci: string): boolean {
    const next = applyPlacement(this.#board, this.color, uci);
    if (next) this.#set(next);
    return !!next;
  }

  /** Puts the piece on `square` back in the tray; false where the seat has none. */
  lift(square: number): boolean {
    const next = lift(this.#board, this.color, square);
    if (next) this.#set(next);
    return !!next;
  }

  /** Whether any piece is on the board. */
  get started(): boolean {
    return this.#board.some((p) => p !== "");
  }

  /** The four rows to send, once all sixteen pieces are placed (null before). */
  rows(): string | null {
    return leftToPlace(this.#board, this.color) === 0 ? halfRows(this.#board, this.color) : null;
  }
}

/** Four FEN rows of `color`'s half, top to bottom, drawn with `random` (0 to 1). */
export function randomHalf(color: Color, random: () => number = Math.random): string {
  const below = (n: number) => Math.min(n - 1, Math.floor(random() * n));
  const rank: (string | null)[] = Array(8).fill(null);
  rank[2 * below(4)] = "b";
  rank[2 * below(4) + 1] = "b";
  for (const piece of ["q", "n", "n", "r", "r", "k"]) {
    const free = [...rank.keys()].filter((f) => rank[f] === null);
    rank[free[below(free.length)] ?? 0] = piece;
  }
  const rows: (string | null)[][] = [0, 1, 2].map(() => Array(8).fill(null));
  for (let file = 0; file < 8; file++) (rows[below(3)] ?? [])[file] = "p";
  const text = (row: (string | null)[]) => {
    let out = "";
    let empty = 0;
    for (const cell of row) {
      if (cell === null) {
        empty++;
        continue;
      }
      if (empty) out += String(empty);
      empty = 0;
      out += color === Color.WHITE ? cell.toUpperCase() : cell;
    }
    return empty ? out + String(empty) : out;
  };
  const [next, middle, far] = rows.map(text);
  const first = text(rank);
  return color === Color.WHITE
    ? `${far}/${middle}/${next}/${first}`
    : `${first}/${next}/${middle}/${far}`;
}
