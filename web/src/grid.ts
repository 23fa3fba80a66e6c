// The ground a board is drawn on and the names on its edges, by the game's custom: chess's
// checkered squares with letters and numbers; shogi's ruled board of equal cells, its files
// numbered from sente's right and its ranks lettered from gote's side, as USI names them;
// xiangqi's grid, whose pieces stand on the points, cut by the river and crossed in each palace,
// its files numbered from each player's right (Red's in Chinese numerals, Black's in Arabic).
// Every point or cell keeps the square's place in the geometry, so the input and the drawing
// of the pieces are the same for every ground.

import { FILE_LETTERS, type Geometry, SQUARE_UNITS } from "./geometry.js";

/** How a game's board is drawn: chess's squares, shogi's ruled cells, or xiangqi's points. */
export type BoardStyle = "squares" | "ruled" | "points";

const SVG = "http://www.w3.org/2000/svg";
const HALF = SQUARE_UNITS / 2;

function el(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function label(attrs: Record<string, string | number>, text: string): SVGElement {
  const t = el("text", { class: "coord", ...attrs });
  t.textContent = text;
  return t;
}

/** A mark on one square or point (the last move, the picked piece): a cell, or a point's disc. */
export function cellMark(
  style: BoardStyle,
  x: number,
  y: number,
  attrs: Record<string, string | number>,
): SVGElement {
  return style === "points"
    ? el("circle", { cx: x + HALF, cy: y + HALF, r: HALF - 4, ...attrs })
    : el("rect", { x, y, width: SQUARE_UNITS, height: SQUARE_UNITS, ...attrs });
}

/** The lines under shogi's and xiangqi's pieces (chess's squares are drawn one by one). */
export function ground(style: BoardStyle, geo: Geometry): SVGElement[] {
  const [width, height] = geo.extent;
  const line = (x1: number, y1: number, x2: number, y2: number) =>
    el("line", { x1, y1, x2, y2, class: "grid" });
  if (style === "ruled") {
    const out = [el("rect", { x: 0, y: 0, width, height, class: "ground ruled" })];
    for (let f = 1; f < geo.files; f++) out.push(line(f * 100, 0, f * 100, height));
    for (let r = 1; r < geo.ranks; r++) out.push(line(0, r * 100, width, r * 100));
    // The four star points of a 9x9 board mark the edges of each side's camp.
    if (geo.files === 9 && geo.ranks === 9) {
      for (const [x, y] of [
        [300, 300],
        [600, 300],
        [300, 600],
        [600, 600],
      ] as const)
        out.push(el("circle", { cx: x, cy: y, r: 6, class: "star" }));
    }
    out.push(el("rect", { x: 1, y: 1, width: width - 2, height: height - 2, class: "edge" }));
    return out;
  }
  if (style !== "points") return [];
  const left = HALF;
  const right = width - HALF;
  const top = HALF;
  const bottom = height - HALF;
  const riverTop = (geo.ranks / 2 - 1) * 100 + HALF;
  const riverBottom = riverTop + 100;
  const out = [el("rect", { x: 0, y: 0, width, height, class: "ground points" })];
  for (let r = 0; r < geo.ranks; r++) out.push(line(left, r * 100 + HALF, right, r * 100 + HALF));
  for (let f = 0; f < geo.files; f++) {
    const x = f * 100 + HALF;
    // The river cuts every file but the two edges.
    if (f === 0 || f === geo.files - 1) out.push(line(x, top, x, bottom));
    else out.push(line(x, top, x, riverTop), line(x, riverBottom, x, bottom));
  }
  // The palaces: the 3x3 points in the middle of each side's first three ranks, crossed.
  const mid = Math.floor(geo.files / 2) * 100 + HALF;
  for (const [y1, y2] of [
    [top, top + 200],
    [bottom - 200, bottom],
  ] as const) {
    out.push(line(mid - 100, y1, mid + 100, y2), line(mid + 100, y1, mid - 100, y2));
  }
  out.push(
    el("rect", { x: left, y: top, width: right - left, height: bottom - top, class: "edge" }),
  );
  const river = label(
    { x: width / 2, y: riverTop + 62, "text-anchor": "middle", class: "river" },
    "楚 河　　漢 界",
  );
  out.push(river);
  return out;
}

const CHINESE_NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/**
 * The names on the board's edges. `at(index)` is where a square is drawn (its top-left corner);
 * each label carries `data-file` or `data-rank` with the square names' letter or number, so a
 * label can be found whatever the custom writes on it.
 */
export function edgeLabels(
  style: BoardStyle,
  geo: Geometry,
  flipped: boolean,
  at: (index: number) => [number, number],
): SVGElement[] {
  const [, height] = geo.extent;
  const out: SVGElement[] = [];
  if (style === "points") {
    // Red (White, ranks 1 to 5) counts the files from its right in Chinese numerals along its
    // own edge; Black counts from its right in Arabic numerals along its edge.
    for (let f = 0; f < geo.files; f++) {
      const [x] = at(f);
      const red = CHINESE_NUMERALS[geo.files - 1 - f] ?? "";
      const black = String(f + 1);
      const redY = flipped ? 13 : height - 1;
      const blackY = flipped ? height - 1 : 13;
      const named = { "text-anchor": "middle", "data-file": FILE_LETTERS[f] ?? "" };
      out.push(
        label({ ...named, x: x + HALF, y: redY, "data-side": "red" }, red),
        label({ ...named, x: x + HALF, y: blackY, "data-side": "black" }, black),
      );
    }
    return out;
  }
  if (style === "ruled") {
    // USI's names: files numbered from sente's right along the top, ranks lettered from
    // gote's side down the right, in the corners a shogi piece leaves free.
    const topRank = flipped ? 0 : geo.ranks - 1;
    for (let f = 0; f < geo.files; f++) {
      const [x, y] = at(topRank * geo.files + f);
      const named = { "text-anchor": "end", "data-file": FILE_LETTERS[f] ?? "" };
      out.push(label({ ...named, x: x + SQUARE_UNITS - 4, y: y + 16 }, String(geo.files - f)));
    }
    const rightFile = flipped ? 0 : geo.files - 1;
    for (let r = 0; r < geo.ranks; r++) {
      const [x, y] = at(r * geo.files + rightFile);
      const named = { "text-anchor": "end", "data-rank": r + 1 };
      const corner = { x: x + SQUARE_UNITS - 4, y: y + SQUARE_UNITS - 4 };
      out.push(label({ ...named, ...corner }, FILE_LETTERS[geo.ranks - 1 - r] ?? ""));
    }
    return out;
  }
  for (let f = 0; f < geo.files; f++) {
    const [x] = at(f);
    const letter = FILE_LETTERS[f] ?? "";
    const named = { "text-anchor": "end", "data-file": letter };
    out.push(label({ ...named, x: x + SQUARE_UNITS - 8, y: height - 6 }, letter));
  }
  for (let r = 0; r < geo.ranks; r++) {
    const [, y] = at(r * geo.files);
    out.push(label({ x: 4, y: y + 20, "data-rank": r + 1 }, String(r + 1)));
  }
  return out;
}
