// The board as SVG: squares, coordinates, pieces, and the marks of play (last move, check, the
// picked piece, its targets, the keyboard's square); and the square under a pointer. The piece
// shapes are drawn here from scratch (simple geometric figures on a 100 x 100 square), so the
// page ships no third-party artwork and fetches nothing. A piece without a shape here (a game's
// own piece, before it has one) is drawn as a disc with its letter. The board takes its shape
// from its geometry: any number of files and ranks up to 10.

import type { Board } from "./chess.js";
import { FILE_LETTERS, type Geometry, SQUARE_UNITS } from "./geometry.js";

const SVG = "http://www.w3.org/2000/svg";

type Shape = [tag: string, attrs: Record<string, string | number>];

const circle = (cx: number, cy: number, r: number): Shape => ["circle", { cx, cy, r }];
const path = (d: string): Shape => ["path", { d }];
const base = (x: number, y: number, w: number, h: number): Shape => [
  "rect",
  { x, y, width: w, height: h, rx: 3 },
];

/** Each piece's body shapes; `DETAIL` shapes are drawn in the contrasting colour. */
const SHAPES: Record<string, Shape[]> = {
  p: [circle(50, 32, 12), path("M38 46 H62 L57 52 L64 78 H36 L43 52 Z"), base(28, 78, 44, 10)],
  r: [
    path(
      "M30 18 H39 V27 H46 V18 H54 V27 H61 V18 H70 V36 L64 41 V70 L70 76 H30 L36 70 V41 L30 36 Z",
    ),
    base(24, 76, 52, 12),
  ],
  n: [
    path(
      "M32 76 C31 60 40 52 47 45 C41 48 35 53 28 51 C21 47 25 38 33 32 C39 26 43 20 45 13 " +
        "L52 21 C65 22 75 35 74 53 C74 63 70 70 70 76 Z",
    ),
    base(24, 76, 52, 12),
  ],
  b: [
    circle(50, 15, 6),
    path("M50 21 C35 32 31 47 38 60 H62 C69 47 65 32 50 21 Z"),
    path("M40 62 H60 L65 76 H35 Z"),
    base(25, 76, 50, 12),
  ],
  q: [
    path("M27 74 L19 32 L36 53 L42 24 L50 51 L58 24 L64 53 L81 32 L73 74 Z"),
    circle(19, 30, 5),
    circle(42, 21, 5),
    circle(58, 21, 5),
    circle(81, 30, 5),
    base(24, 74, 52, 14),
  ],
  k: [
    path("M46 5 H54 V13 H62 V21 H54 V31 H46 V21 H38 V13 H46 Z"),
    path(
      "M50 36 C40 26 21 30 24 46 C26 58 32 66 34 74 H66 C68 66 74 58 76 46 C79 30 60 26 50 36 Z",
    ),
    base(28, 74, 44, 14),
  ],
};

const DETAIL: Record<string, Shape[]> = {
  n: [circle(43, 30, 2.5)],
  b: [path("M47 36 L55 46")],
  k: [path("M36 60 H64")],
  q: [path("M33 64 H67")],
};

const PIECE_NAMES: Record<string, string> = {
  p: "pawn",
  n: "knight",
  b: "bishop",
  r: "rook",
  q: "queen",
  k: "king",
};

function el(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** One piece as a group positioned at (x, y) in board units (100 per square). */
export function pieceNode(piece: string, x: number, y: number): SVGElement {
  const kind = piece.toLowerCase();
  const white = piece !== kind;
  const g = el("g", {
    transform: `translate(${x} ${y})`,
    class: `piece ${white ? "white" : "black"}`,
    "data-piece": piece,
  });
  const shapes = SHAPES[kind];
  if (!shapes) {
    g.append(el("circle", { cx: 50, cy: 50, r: 38, class: "body" }));
    const letter = el("text", { x: 50, y: 64, "text-anchor": "middle", class: "detail letter" });
    letter.textContent = kind.toUpperCase();
    g.append(letter);
    return g;
  }
  for (const [tag, attrs] of shapes) g.append(el(tag, { ...attrs, class: "body" }));
  for (const [tag, attrs] of DETAIL[kind] ?? []) g.append(el(tag, { ...attrs, class: "detail" }));
  return g;
}

/** "knight" for "n", "knights" for two. */
export function roleName(role: string, count = 1): string {
  const name = PIECE_NAMES[role.toLowerCase()] ?? `${role.toUpperCase()} piece`;
  return count === 1 ? name : `${name}s`;
}

/** "white knight" for "N". */
export function pieceName(piece: string): string {
  const kind = piece.toLowerCase();
  return `${piece === kind ? "black" : "white"} ${roleName(kind)}`;
}

/** A spoken description of the position, for screen readers. */
export function describeBoard(board: Board, geo: Geometry): string {
  const sides: string[] = [];
  const others = [...new Set(board.map((p) => p.toLowerCase()))].filter(
    (k) => k !== "" && !"kqrbnp".includes(k),
  );
  for (const white of [true, false]) {
    const parts: string[] = [];
    for (const kind of ["k", "q", "r", "b", "n", "p", ...others.sort()]) {
      const squares: string[] = [];
      board.forEach((p, i) => {
        if (p !== "" && p.toLowerCase() === kind && (p !== kind) === white) {
          squares.push(geo.name(i));
        }
      });
      if (squares.length) parts.push(`${roleName(kind)} ${squares.join(" ")}`);
    }
    sides.push(`${white ? "White" : "Black"}: ${parts.join(", ") || "nothing"}`);
  }
  return sides.join(". ");
}

/** How a target square is marked: a dot, a ring round a piece taken, a ring round the rook. */
export type TargetKind = "move" | "capture" | "castle";

/** What is marked on the board besides the pieces. */
export interface BoardMarks {
  /** The last move's squares, highlighted (a drop has one). */
  highlight?: readonly number[];
  /** The king in check: "K" or "k". */
  check?: "K" | "k" | null;
  /** The square of the piece the player picked up. */
  selected?: number | null;
  /** Where the picked piece may go. */
  targets?: ReadonlyMap<number, TargetKind>;
  /** The keyboard's square, while the board has the focus. */
  cursor?: number | null;
}

/** The square under a point of the page, or -1 when the point is off the board. */
export function squareAt(
  svg: Element,
  geo: Geometry,
  clientX: number,
  clientY: number,
  flipped: boolean,
): number {
  const box = svg.getBoundingClientRect();
  return geo.at((clientX - box.left) / box.width, (clientY - box.top) / box.height, flipped);
}

/** A piece on its own, for buttons (the promotion picker, the pockets). */
export function pieceIcon(piece: string): SVGElement {
  const svg = el("svg", { viewBox: "0 0 100 100", class: "piece-icon", "aria-hidden": "true" });
  svg.append(pieceNode(piece, 0, 0));
  return svg;
}

/**
 * Draws `board` (of `geo`) into a fresh SVG element, White at the bottom unless `flipped`.
 * a1 is dark on every board, as on chess's.
 */
export function drawBoard(
  board: Board,
  geo: Geometry,
  flipped: boolean,
  marks: BoardMarks = {},
): SVGElement {
  const [width, height] = geo.extent;
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "board",
    role: "img",
    "aria-label": describeBoard(board, geo),
    "data-files": geo.files,
    "data-ranks": geo.ranks,
  });
  const squareName = (i: number) => geo.name(i);
  const at = (index: number) => geo.origin(index, flipped);
  const highlight = marks.highlight ?? [];
  for (let i = 0; i < geo.size; i++) {
    const [x, y] = at(i);
    const light = geo.fileOf(i) % 2 !== geo.rankOf(i) % 2;
    svg.append(
      el("rect", {
        x,
        y,
        width: 100,
        height: 100,
        class: light ? "sq light" : "sq dark",
        "data-square": squareName(i),
      }),
    );
    if (highlight.includes(i)) {
      svg.append(
        el("rect", { x, y, width: 100, height: 100, class: "sq last", "data-last": squareName(i) }),
      );
    }
    if (i === marks.selected) {
      svg.append(el("rect", { x, y, width: 100, height: 100, class: "sq selected" }));
    }
    if (marks.check && board[i] === marks.check) {
      svg.append(el("circle", { cx: x + 50, cy: y + 50, r: 46, class: "check" }));
    }
  }
  for (let f = 0; f < geo.files; f++) {
    const [x] = at(f);
    const t = el("text", {
      x: x + SQUARE_UNITS - 8,
      y: height - 6,
      class: "coord",
      "text-anchor": "end",
      "data-file": FILE_LETTERS[f] ?? "",
    });
    t.textContent = FILE_LETTERS[f] ?? "";
    svg.append(t);
  }
  for (let r = 0; r < geo.ranks; r++) {
    const [, y] = at(r * geo.files);
    const t = el("text", { x: 4, y: y + 20, class: "coord", "data-rank": r + 1 });
    t.textContent = String(r + 1);
    svg.append(t);
  }
  board.forEach((piece, i) => {
    if (piece === "") return;
    const [x, y] = at(i);
    const node = pieceNode(piece, x, y);
    node.setAttribute("data-square", squareName(i));
    svg.append(node);
  });
  for (const [i, kind] of marks.targets ?? []) {
    const [x, y] = at(i);
    const square = squareName(i);
    svg.append(
      kind === "move"
        ? el("circle", { cx: x + 50, cy: y + 50, r: 15, class: "target", "data-target": square })
        : el("circle", {
            cx: x + 50,
            cy: y + 50,
            r: 44,
            class: `target ${kind}`,
            "data-target": square,
          }),
    );
  }
  if (marks.cursor !== null && marks.cursor !== undefined) {
    const [x, y] = at(marks.cursor);
    svg.append(el("rect", { x: x + 3, y: y + 3, width: 94, height: 94, class: "cursor" }));
  }
  return svg;
}
