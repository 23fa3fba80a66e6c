// The pieces of xiangqi and shogi: their letters' names, and the characters their players know
// them by, drawn on a disc (xiangqi) or on the pentagon of a shogi piece. The characters are
// SVG text in the system's CJK fonts, so the page ships no font and fetches nothing.

import type { PieceSet } from "./pieces.js";

/** How a character piece is drawn. */
export interface CharacterPiece {
  /** A xiangqi disc, or a shogi pentagon pointing at the opponent. */
  shape: "disc" | "pentagon";
  /** The character(s) on White's (Red's, sente's) piece, then Black's (gote's). */
  white: string;
  black: string;
  /** A promoted shogi piece: its characters are red. */
  promoted: boolean;
}

/** Xiangqi's letters, as chessd's FEN writes them, by the pieces' English names. */
export const XIANGQI_SET: PieceSet = {
  k: "general",
  a: "advisor",
  b: "elephant",
  n: "horse",
  r: "chariot",
  c: "cannon",
  p: "soldier",
};

/** Shogi's letters; a promoted piece is its letter after a `+`. */
export const SHOGI_SET: PieceSet = {
  k: "king",
  r: "rook",
  b: "bishop",
  g: "gold",
  s: "silver",
  n: "knight",
  l: "lance",
  p: "pawn",
  "+r": "dragon",
  "+b": "horse",
  "+s": "promoted silver",
  "+n": "promoted knight",
  "+l": "promoted lance",
  "+p": "tokin",
};

const disc = (white: string, black: string): CharacterPiece => ({
  shape: "disc",
  white,
  black,
  promoted: false,
});
const pentagon = (chars: string, promoted = false): CharacterPiece => ({
  shape: "pentagon",
  white: chars,
  black: chars,
  promoted,
});

// Red's and Black's pieces are written differently for the same role, as on a real set.
const XIANGQI: Record<string, CharacterPiece> = {
  k: disc("帥", "將"),
  a: disc("仕", "士"),
  b: disc("相", "象"),
  n: disc("傌", "馬"),
  r: disc("俥", "車"),
  c: disc("炮", "砲"),
  p: disc("兵", "卒"),
};

const SHOGI: Record<string, CharacterPiece> = {
  // The king is 王 for sente and 玉 for gote, as the two kings of a set are written.
  k: { shape: "pentagon", white: "王", black: "玉", promoted: false },
  r: pentagon("飛"),
  b: pentagon("角"),
  g: pentagon("金"),
  s: pentagon("銀"),
  n: pentagon("桂"),
  l: pentagon("香"),
  p: pentagon("歩"),
  "+r": pentagon("龍", true),
  "+b": pentagon("馬", true),
  "+s": pentagon("成銀", true),
  "+n": pentagon("成桂", true),
  "+l": pentagon("成香", true),
  "+p": pentagon("と", true),
};

// Found by the set itself: a letter means a character piece only in these games' sets.
const TABLES = new Map<PieceSet, Record<string, CharacterPiece>>([
  [XIANGQI_SET, XIANGQI],
  [SHOGI_SET, SHOGI],
]);

/** The character piece a letter ("+P", "c") is in `set`'s game, or null outside those games. */
export function characterOf(letter: string, set: PieceSet): CharacterPiece | null {
  return TABLES.get(set)?.[letter.toLowerCase()] ?? null;
}

/** A shogi piece's outline on a 100 x 100 square, its point up; pawns' a little smaller. */
export function pentagonPath(small: boolean): string {
  const s = small ? 0.88 : 1;
  const p = (x: number, y: number) => `${50 + (x - 50) * s} ${54 + (y - 54) * s}`;
  return `M${p(50, 7)} L${p(77, 20)} L${p(86, 94)} L${p(14, 94)} L${p(23, 20)} Z`;
}
