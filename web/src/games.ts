// What the page knows of each game chessd plays: its key, name, family, board (files and
// ranks), the pieces it uses, the pieces a pawn may promote to, the pieces a hand holds, and a
// one-line summary for the lobby. The board, the move input, the pockets and the promotion
// picker read these, so a game on another board or with other pieces needs only its entry
// here (and its rules page, docs/games/<key>.md). A game the server plays that the page does
// not know yet is drawn from the server's `Game.geometry` with the fallbacks below.

import { Geometry, STANDARD } from "./geometry.js";
import { Variant } from "./gen/chessd/v1/chessd_pb.js";

export interface GameInfo {
  /** The variant's stable key, as the server spells it ("crazyhouse"). */
  key: string;
  variant: Variant;
  name: string;
  /** The lobby's heading the game is listed under. */
  family: string;
  geometry: Geometry;
  /** The pieces drawn, by their FEN letter (lower case). */
  pieces: string;
  /** What a pawn may become, in the picker's order. */
  promotions: string;
  /** The pieces a hand (Crazyhouse's pocket) holds, in the order shown; "" without hands. */
  hand: string;
  /** One sentence for the lobby. */
  summary: string;
}

const CHESS_PIECES = "kqrbnp";
const CHESS_PROMOTIONS = "qrbn";

/** The families, in the lobby's order. */
export const FAMILIES = [
  "Chess",
  "Chess variants: same pieces, other goals",
  "Drop games",
] as const;

function chessLike(
  key: string,
  variant: Variant,
  name: string,
  family: string,
  summary: string,
  extra: Partial<GameInfo> = {},
): GameInfo {
  return {
    key,
    variant,
    name,
    family,
    geometry: STANDARD,
    pieces: CHESS_PIECES,
    promotions: CHESS_PROMOTIONS,
    hand: "",
    summary,
    ...extra,
  };
}

const [CHESS, OTHER_GOALS, DROPS] = FAMILIES;

/** Every game the page knows, in the lobby's order. */
export const GAMES: readonly GameInfo[] = [
  chessLike("chess", Variant.CHESS, "Chess", CHESS, "Standard chess under FIDE's Laws."),
  chessLike(
    "chess960",
    Variant.CHESS960,
    "Chess960",
    CHESS,
    "Chess from one of 960 shuffled back ranks; castling still ends on the usual squares.",
  ),
  chessLike(
    "threecheck",
    Variant.THREE_CHECK,
    "Three-check",
    OTHER_GOALS,
    "Chess, but giving check for the third time also wins.",
  ),
  chessLike(
    "kingofthehill",
    Variant.KING_OF_THE_HILL,
    "King of the Hill",
    OTHER_GOALS,
    "Chess, but a king that reaches d4, e4, d5 or e5 also wins.",
  ),
  chessLike(
    "racingkings",
    Variant.RACING_KINGS,
    "Racing Kings",
    OTHER_GOALS,
    "No pawns, no checks: the first king to reach the eighth rank wins.",
  ),
  chessLike(
    "antichess",
    Variant.ANTICHESS,
    "Antichess",
    OTHER_GOALS,
    "Captures are compulsory; lose all your pieces, or be left without a move, to win.",
    { promotions: "qrbnk" },
  ),
  chessLike(
    "atomic",
    Variant.ATOMIC,
    "Atomic",
    OTHER_GOALS,
    "Every capture explodes the pieces around it; blow up the enemy king to win.",
  ),
  chessLike(
    "horde",
    Variant.HORDE,
    "Horde",
    OTHER_GOALS,
    "Thirty-six white pawns against Black's army: Black must take them all.",
  ),
  chessLike(
    "crazyhouse",
    Variant.CRAZYHOUSE,
    "Crazyhouse",
    DROPS,
    "Chess where a captured piece changes sides and may be dropped back onto the board.",
    { hand: "pnbrq" },
  ),
];

/** The game of a variant or key, or null when the page does not know it. */
export function gameInfo(v: Variant | string): GameInfo | null {
  return GAMES.find((g) => (typeof v === "string" ? g.key === v : g.variant === v)) ?? null;
}

/** The pieces a hand holds in a game (the page's order), for any game: Crazyhouse's by default. */
export function handRoles(v: Variant | string): string {
  return gameInfo(v)?.hand || "pnbrq";
}

/** A pawn's promotions in a game, in the picker's order. */
export function promotionOrder(v: Variant | string): string {
  return gameInfo(v)?.promotions ?? CHESS_PROMOTIONS + "k";
}
