// Screen Chess's secret setup on the page: a placement the seat may draw at random and look
// at on its own half of the board (the server shows it only that half), then make final. The
// placement keeps both games' rules: the back rank shuffled with the bishops on squares of
// both colours, and a pawn on every file on one of the three ranks before it.

import { Color, type Setup, SetupState } from "./gen/chessd/v1/chessd_pb.js";

/** The seat of `color` in `setup`. */
function seatOf(setup: Setup, color: Color) {
  return color === Color.WHITE ? setup.white : setup.black;
}

/** Whether `color` has still to make its placement final. */
export function mustPlace(setup: Setup | null, color: Color): boolean {
  if (!setup) return false;
  return seatOf(setup, color)?.state !== SetupState.FINAL;
}

/** `color`'s draft, which the seat may make final ("" when it has none). */
export function draftOf(setup: Setup | null, color: Color): string {
  if (!setup) return "";
  const seat = seatOf(setup, color);
  return seat?.state === SetupState.DRAFT ? seat.placement : "";
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
