// A Chess960 start position's number (Scharnagl's, 0 to 959, as CreateGame's chess960_start
// takes it; 518 is the standard arrangement), read back from a start FEN so the page can name
// the start a game was created from. The game does not carry the number, only its start FEN.

/** The knights' places among the five squares the bishops and queen leave, by number. */
const KNIGHTS = [
  "11000", "10100", "10010", "10001", "01100", "01010", "01001", "00110", "00101", "00011",
];

/**
 * The number of White's back rank `rank` (a to h, "RNBQKBNR"), or null when it is no Chess960
 * start: two bishops on opposite colours, the king between the two rooks, a queen, two knights.
 */
export function startNumber(rank: string): number | null {
  if (rank.length !== 8 || [...rank].sort().join("") !== "BBKNNQRR") return null;
  const files = (piece: string) => [...rank].flatMap((p, i) => (p === piece ? [i] : []));
  const [b1 = 0, b2 = 0] = files("B");
  if (b1 % 2 === b2 % 2) return null;
  // On the first rank, the b, d, f and h squares are light.
  const light = b1 % 2 === 1 ? b1 : b2;
  const dark = b1 % 2 === 0 ? b1 : b2;
  const rest = [...rank].filter((p) => p !== "B");
  const queen = rest.indexOf("Q");
  const others = rest.filter((p) => p !== "Q");
  const knights = KNIGHTS.indexOf(others.map((p) => (p === "N" ? "1" : "0")).join(""));
  if (others.filter((p) => p !== "N").join("") !== "RKR" || knights < 0) return null;
  return (light - 1) / 2 + 4 * (dark / 2 + 4 * (queen + 6 * knights));
}

/**
 * The start number of a FEN that is a Chess960 start position (pawns on their ranks, Black's
 * back rank mirroring White's, White to move, all four castling rights), or null.
 */
export function startNumberOfFen(fen: string): number | null {
  const [placement = "", turn, castling = ""] = fen.trim().split(/\s+/);
  const ranks = placement.split("/");
  const white = ranks[7] ?? "";
  if (ranks.length !== 8 || turn !== "w" || castling.length !== 4) return null;
  if (ranks[0] !== white.toLowerCase() || ranks[1] !== "pppppppp" || ranks[6] !== "PPPPPPPP")
    return null;
  if (ranks.slice(2, 6).some((r) => r !== "8")) return null;
  return startNumber(white);
}
