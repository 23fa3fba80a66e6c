// The board as SVG: squares, coordinates, pieces, and the marks of play (last move, check, the
// picked piece, its targets, the keyboard's square); and the square under a pointer. The
// pieces are drawn from pieces.ts, read through the game's `PieceSet` (what each letter is in
// that game); a letter the set does not know (a game the page does not know yet) is drawn as a
// disc with its letter; xiangqi's and shogi's as their characters (characters.ts). The board
// takes its shape from its geometry (any number of files and ranks up to 10) and its ground
// from the game's custom (grid.ts): squares, shogi's ruled cells, or xiangqi's points. A `*`
// is drawn as its game names it: an ice cube standing on its square like a piece, or a vanished
// square, a hole with no square's colour. Cylinder's board marks its a- and h-file edges as one
// seam; a move across it is highlighted square by square, so no mark crosses the board.

import { type Board, NEUTRAL, UNSEEN } from "./chess.js";
import { type CharacterPiece, characterOf, pentagonPath } from "./characters.js";
import { FILE_LETTERS, type Geometry } from "./geometry.js";
import { type BoardStyle, cellMark, edgeLabels, ground } from "./grid.js";
import {
  BEHEMOTH,
  BEHEMOTH_SHAPES,
  CHESS_SET,
  HOLE,
  ICE_SHAPES,
  type PieceSet,
  roleName,
  roleOf,
  shapesOf,
} from "./pieces.js";

export { roleName };

const SVG = "http://www.w3.org/2000/svg";

function el(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A xiangqi disc or a shogi pentagon with its characters, into `g`. */
function drawCharacter(g: SVGElement, c: CharacterPiece, white: boolean, turned: boolean): void {
  const chars = white ? c.white : c.black;
  const inner = turned ? el("g", { transform: "rotate(180 50 50)" }) : g;
  if (c.shape === "disc") {
    g.classList.add("xiangqi");
    inner.append(
      el("circle", { cx: 50, cy: 50, r: 36, class: "body" }),
      el("circle", { cx: 50, cy: 50, r: 30, class: "ring" }),
    );
  } else {
    g.classList.add("shogi");
    inner.append(el("path", { d: pentagonPath(chars === "歩" || chars === "と"), class: "body" }));
  }
  // Two characters (成銀) are written one above the other, as on the piece.
  const lines = [...chars];
  const size = lines.length > 1 ? 28 : c.shape === "disc" ? 40 : 44;
  const first = c.shape === "disc" ? 64 : lines.length > 1 ? 52 : 70;
  lines.forEach((ch, i) => {
    const t = el("text", {
      x: 50,
      y: first + i * (size + 2),
      "text-anchor": "middle",
      "font-size": size,
      class: c.promoted ? "glyph promoted" : "glyph",
    });
    t.textContent = ch;
    inner.append(t);
  });
  if (inner !== g) g.append(inner);
}

/**
 * One piece as a group positioned at (x, y) in board units (100 per square). A shogi piece
 * points away from its owner: up for the side drawn at the bottom (White unless `flipped`).
 */
export function pieceNode(
  piece: string,
  x: number,
  y: number,
  set: PieceSet = CHESS_SET,
  flipped = false,
): SVGElement {
  const kind = piece.toLowerCase();
  const white = piece !== kind;
  const neutral = piece === NEUTRAL;
  const g = el("g", {
    transform: `translate(${x} ${y})`,
    class: `piece ${neutral ? "neutral" : white ? "white" : "black"}`,
    "data-piece": piece,
  });
  const role = roleOf(kind, set);
  if (neutral) {
    if (role) g.setAttribute("data-piece-role", role);
    for (const [tag, attrs] of role === BEHEMOTH ? BEHEMOTH_SHAPES : ICE_SHAPES) {
      g.append(el(tag, attrs));
    }
    return g;
  }
  const character = characterOf(kind, set);
  if (character) {
    if (role) g.setAttribute("data-piece-role", role);
    drawCharacter(g, character, white, character.shape === "pentagon" && white === flipped);
    return g;
  }
  const shapes = role ? shapesOf(role) : null;
  if (!shapes) {
    g.append(el("circle", { cx: 50, cy: 50, r: 38, class: "body" }));
    const letter = el("text", { x: 50, y: 64, "text-anchor": "middle", class: "detail letter" });
    letter.textContent = kind.toUpperCase();
    g.append(letter);
    return g;
  }
  if (role) g.setAttribute("data-piece-role", role);
  for (const [tag, attrs] of shapes.body) g.append(el(tag, { ...attrs, class: "body" }));
  for (const [tag, attrs] of shapes.detail) g.append(el(tag, { ...attrs, class: "detail" }));
  return g;
}

/** "white knight" for "N" (in `set`'s game). */
export function pieceName(piece: string, set: PieceSet = CHESS_SET): string {
  const kind = piece.toLowerCase();
  return `${piece === kind ? "black" : "white"} ${roleName(kind, 1, set)}`;
}

/** A spoken description of the position, for screen readers. */
export function describeBoard(board: Board, geo: Geometry, set: PieceSet = CHESS_SET): string {
  const sides: string[] = [];
  const others = [...new Set(board.map((p) => p.toLowerCase()))].filter(
    (k) =>
      k !== "" && k !== NEUTRAL && k !== UNSEEN && !["k", "q", "r", "b", "n", "p"].includes(k),
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
      if (squares.length) parts.push(`${roleName(kind, 1, set)} ${squares.join(" ")}`);
    }
    sides.push(`${white ? "White" : "Black"}: ${parts.join(", ") || "nothing"}`);
  }
  const neutral = board.flatMap((p, i) => (p === NEUTRAL ? [geo.name(i)] : []));
  if (neutral.length) {
    const name = roleName(NEUTRAL, neutral.length, set);
    sides.push(`${name[0]?.toUpperCase()}${name.slice(1)}: ${neutral.join(" ")}`);
  }
  const unseen = board.filter((p) => p === UNSEEN).length;
  if (unseen) sides.push(`${unseen} squares unseen`);
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
  /** Ambiguous Chess: the target pending, which the side to move executes. */
  pending?: number | null;
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

/** A piece on its own, for buttons (the promotion picker, the pockets); turned as on the board. */
export function pieceIcon(piece: string, set: PieceSet = CHESS_SET, flipped = false): SVGElement {
  const svg = el("svg", { viewBox: "0 0 100 100", class: "piece-icon", "aria-hidden": "true" });
  svg.append(pieceNode(piece, 0, 0, set, flipped));
  return svg;
}

/** The seam where Cylinder's edge files meet: a dashed line down each side edge. */
function seam(geo: Geometry, flipped: boolean): SVGElement[] {
  const [width, height] = geo.extent;
  const last = FILE_LETTERS[geo.files - 1] ?? "";
  const edges: [number, string][] = [
    [3, flipped ? last : "a"],
    [width - 3, flipped ? "a" : last],
  ];
  return edges.map(([x, file]) =>
    el("line", { x1: x, y1: 0, x2: x, y2: height, class: "seam", "data-seam": file }),
  );
}

/**
 * Draws `board` (of `geo`, its letters `set`'s, on the ground `style`) into a fresh SVG element,
 * White at the bottom unless `flipped`. a1 is dark on every checkered board, as on chess's.
 * `wraps`: the edge files are joined (Cylinder), and the board says so.
 */
export function drawBoard(
  board: Board,
  geo: Geometry,
  flipped: boolean,
  marks: BoardMarks = {},
  set: PieceSet = CHESS_SET,
  style: BoardStyle = "squares",
  wraps = false,
): SVGElement {
  const [width, height] = geo.extent;
  const spoken = describeBoard(board, geo, set);
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: `board ${style}`,
    "data-style": style,
    role: "img",
    "aria-label": wraps ? `${spoken}. The a- and ${FILE_LETTERS[geo.files - 1]}-files join` : spoken,
    "data-files": geo.files,
    "data-ranks": geo.ranks,
  });
  const hole = roleOf(NEUTRAL, set) === HOLE;
  const squareName = (i: number) => geo.name(i);
  const at = (index: number) => geo.origin(index, flipped);
  const highlight = marks.highlight ?? [];
  svg.append(...ground(style, geo));
  for (let i = 0; i < geo.size; i++) {
    const [x, y] = at(i);
    const light = geo.fileOf(i) % 2 !== geo.rankOf(i) % 2;
    // Shogi's cells and xiangqi's points are one colour: the ground shows through.
    const kind = style === "squares" ? (light ? "light" : "dark") : "cell";
    // A vanished square is a hole: no square's colour, nothing to land on.
    const gone = hole && board[i] === NEUTRAL;
    const attrs = { class: `sq ${gone ? "hole" : kind}`, "data-square": squareName(i) };
    svg.append(cellMark(style, x, y, gone ? { ...attrs, "data-hole": squareName(i) } : attrs));
    // Fog over a square the viewer does not see: nothing of it is known, not even emptiness.
    if (board[i] === UNSEEN) {
      svg.append(cellMark(style, x, y, { class: "sq fog", "data-fog": squareName(i) }));
    }
    if (highlight.includes(i)) {
      svg.append(cellMark(style, x, y, { class: "sq last", "data-last": squareName(i) }));
    }
    if (i === marks.pending) {
      svg.append(cellMark(style, x, y, { class: "sq marked", "data-marked": squareName(i) }));
    }
    if (i === marks.selected) {
      svg.append(cellMark(style, x, y, { class: "sq selected" }));
    }
    if (marks.check && board[i] === marks.check) {
      svg.append(el("circle", { cx: x + 50, cy: y + 50, r: 46, class: "check" }));
    }
  }
  if (wraps) svg.append(...seam(geo, flipped));
  svg.append(...edgeLabels(style, geo, flipped, at));
  board.forEach((piece, i) => {
    if (piece === "" || piece === UNSEEN || (hole && piece === NEUTRAL)) return;
    const [x, y] = at(i);
    const node = pieceNode(piece, x, y, set, flipped);
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
