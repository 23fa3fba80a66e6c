// Positions for drawing only: FEN placement parsing and playing a move from the server's list
// (the server enforces the rules; the page needs the board after each ply to step through a
// game whose snapshot lists moves but not the positions between them, and the board after the
// player's own move while the server has not answered yet).

/** A piece as FEN writes it: "K", "q", ... (upper case White). */
export type Piece = string;

/** 64 squares, index = rank * 8 + file, a1 = 0, h8 = 63; "" for empty. */
export type Board = Piece[];

export const FILES = "abcdefgh";

/** The square index of "e4", or -1. */
export function squareIndex(name: string): number {
  const file = FILES.indexOf(name[0] ?? "");
  const rank = Number(name[1]) - 1;
  if (file < 0 || !(rank >= 0 && rank < 8)) return -1;
  return rank * 8 + file;
}

export function squareName(index: number): string {
  return FILES[index % 8] + String(Math.floor(index / 8) + 1);
}

/** The piece placement of a FEN (its first field). Throws on a malformed placement. */
export function parseFen(fen: string): Board {
  const placement = fen.trim().split(/\s+/)[0] ?? "";
  const ranks = placement.split("/");
  if (ranks.length !== 8) throw new Error(`bad FEN placement: ${placement}`);
  const board: Board = new Array<Piece>(64).fill("");
  ranks.forEach((row, i) => {
    const rank = 7 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) {
        file += Number(ch);
      } else if (/[pnbrqkPNBRQK]/.test(ch)) {
        if (file > 7) throw new Error(`bad FEN rank: ${row}`);
        board[rank * 8 + file] = ch;
        file += 1;
      } else {
        throw new Error(`bad FEN character: ${ch}`);
      }
    }
    if (file !== 8) throw new Error(`bad FEN rank: ${row}`);
  });
  return board;
}

/** The from and to squares of a UCI move ("e2e4", "e7e8q"), or null. */
export function uciSquares(uci: string): { from: number; to: number } | null {
  const from = squareIndex(uci.slice(0, 2));
  const to = squareIndex(uci.slice(2, 4));
  return from < 0 || to < 0 ? null : { from, to };
}

/**
 * The board after a legal UCI move: castling as the king's two-square move (the rook jumps
 * too), en passant (a pawn moving diagonally to an empty square takes the pawn beside it),
 * promotion (the fifth character).
 */
export function playUci(board: Board, uci: string): Board {
  const squares = uciSquares(uci);
  if (!squares) return board;
  const { from, to } = squares;
  const next = board.slice();
  const piece = next[from] ?? "";
  const white = piece === piece.toUpperCase();
  next[from] = "";
  if (piece.toLowerCase() === "p" && from % 8 !== to % 8 && next[to] === "") {
    next[to - (white ? 8 : -8)] = "";
  }
  if (piece.toLowerCase() === "k" && Math.abs((from % 8) - (to % 8)) === 2) {
    const rank = Math.floor(from / 8) * 8;
    const kingside = to % 8 > from % 8;
    const rookFrom = rank + (kingside ? 7 : 0);
    const rookTo = rank + (kingside ? 5 : 3);
    next[rookTo] = next[rookFrom] ?? "";
    next[rookFrom] = "";
  }
  const promotion = uci[4];
  next[to] = promotion ? (white ? promotion.toUpperCase() : promotion.toLowerCase()) : piece;
  return next;
}

/** Whether two boards hold the same pieces on the same squares. */
export function samePlacement(a: Board, b: Board): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}
