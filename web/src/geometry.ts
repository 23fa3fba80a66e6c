// A board's shape: how many files and ranks it has, and how its squares are named, numbered
// and drawn. Every board the page handles goes through one of these, so a game on 6x6, 10x8 or
// 10x10 needs only its description (games.ts) or the server's `Game.geometry`. Squares are
// numbered from a1 = 0 along the first rank, then up: index = rank * files + file. Names are a
// file letter (a to j) and a rank number (1 to 10), as chessd's UCI writes them ("j10").

/** The file letters a board may use: chessd names squares up to the j file. */
export const FILE_LETTERS = "abcdefghij";

/** The most files or ranks a board may have, as square names go up to j10. */
export const MAX_SIDE = 10;

/** Board units per square in the SVG drawing. */
export const SQUARE_UNITS = 100;

export class Geometry {
  readonly files: number;
  readonly ranks: number;

  constructor(files: number, ranks: number) {
    if (!(Number.isInteger(files) && Number.isInteger(ranks)))
      throw new Error(`bad board size ${files}x${ranks}`);
    if (files < 1 || ranks < 1 || files > MAX_SIDE || ranks > MAX_SIDE)
      throw new Error(`bad board size ${files}x${ranks}`);
    this.files = files;
    this.ranks = ranks;
  }

  /** The number of squares. */
  get size(): number {
    return this.files * this.ranks;
  }

  fileOf(index: number): number {
    return index % this.files;
  }

  rankOf(index: number): number {
    return Math.floor(index / this.files);
  }

  /** The index of the square on `file` and `rank` (from 0), or -1 off the board. */
  index(file: number, rank: number): number {
    if (file < 0 || rank < 0 || file >= this.files || rank >= this.ranks) return -1;
    return rank * this.files + file;
  }

  /** "e4" for the square's index. */
  name(index: number): string {
    return (FILE_LETTERS[this.fileOf(index)] ?? "?") + String(this.rankOf(index) + 1);
  }

  /** The index of a square's name ("e4", "j10"), or -1 when it is not a square of this board. */
  parse(name: string): number {
    const m = /^([a-j])(10|[1-9])$/.exec(name);
    if (!m?.[1] || !m[2]) return -1;
    return this.index(FILE_LETTERS.indexOf(m[1]), Number(m[2]) - 1);
  }

  /** The drawing's size in board units: [width, height]. */
  get extent(): [number, number] {
    return [this.files * SQUARE_UNITS, this.ranks * SQUARE_UNITS];
  }

  /** Where square `index` is drawn (its top-left corner), White at the bottom unless flipped. */
  origin(index: number, flipped: boolean): [number, number] {
    const file = this.fileOf(index);
    const rank = this.rankOf(index);
    return flipped
      ? [(this.files - 1 - file) * SQUARE_UNITS, rank * SQUARE_UNITS]
      : [file * SQUARE_UNITS, (this.ranks - 1 - rank) * SQUARE_UNITS];
  }

  /**
   * The square at a point of the drawing given as fractions of its width and height (0 to 1,
   * from the top-left), or -1 off the board.
   */
  at(fx: number, fy: number, flipped: boolean): number {
    const col = Math.floor(fx * this.files);
    const row = Math.floor(fy * this.ranks);
    if (col < 0 || col >= this.files || row < 0 || row >= this.ranks) return -1;
    return flipped
      ? this.index(this.files - 1 - col, row)
      : this.index(col, this.ranks - 1 - row);
  }

  equals(other: Geometry): boolean {
    return this.files === other.files && this.ranks === other.ranks;
  }
}

/** The 8x8 board of every game chessd plays today. */
export const STANDARD = new Geometry(8, 8);

/** A geometry from the server's `BoardGeometry` (unset or zero: 8x8). */
export function geometryOf(g: { files: number; ranks: number } | undefined): Geometry {
  if (!g || g.files === 0 || g.ranks === 0) return STANDARD;
  if (g.files === 8 && g.ranks === 8) return STANDARD;
  return new Geometry(g.files, g.ranks);
}
