// What the page knows of each game chessd plays: its key, name, family, board (files and
// ranks), the pieces it uses and what each letter is in it, the pieces a pawn may promote to,
// the pieces a hand holds, how its board is drawn (chess's squares, shogi's ruled cells,
// xiangqi's points), what a FEN's `*` is (an ice cube, a vanished square), what a move leaves
// behind where it is not chess's (Recycle's hands, Cheshire Cat's vanished squares), whether the
// edge files join (Cylinder), and a one-line summary for the lobby. The wide family's games have
// no `Variant` number (they are `Variant.UNSPECIFIED` on the wire): the page finds them, and
// asks the server for them, by key. The board, the move input, the pockets and the promotion
// picker read these, so a game on another board or with other pieces needs only its entry
// here (and its rules page, docs/games/<key>.md). A game the server plays that the page does
// not know yet is drawn from the server's `Game.geometry` with the fallbacks below.

import type { HouseRules } from "./chess.js";
import { SHOGI_SET, XIANGQI_SET } from "./characters.js";
import { Geometry, STANDARD } from "./geometry.js";
import type { BoardStyle } from "./grid.js";
import { Variant } from "./gen/chessd/v1/chessd_pb.js";
import { BEHEMOTH, CHESS_SET, HOLE, ICE, type PieceSet } from "./pieces.js";

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
  /** What each of those letters is in this game (`A` is an archbishop here, an amazon there). */
  roles: PieceSet;
  /** What a pawn may become, in the picker's order. */
  promotions: string;
  /** The pieces a hand (Crazyhouse's pocket) holds, in the order shown; "" without hands. */
  hand: string;
  /** One sentence for the lobby. */
  summary: string;
  /** The board's ground and edge names: chess's squares, shogi's ruled cells, xiangqi's points. */
  style: BoardStyle;
  /** A SAN ending in `+` gives check (shogi's marks a promotion, xiangqi's WXF a move forward). */
  sanChecks: boolean;
  /** The move box's example moves, for a game without a `Variant` (text.ts has the others'). */
  examples?: string;
  /** What a move leaves behind where it differs from chess (for the page's own sketches). */
  rules?: HouseRules;
  /** The edge files are joined (Cylinder): the board marks the seam. */
  wraps?: boolean;
}

const CHESS_PIECES = "kqrbnp";
const CHESS_PROMOTIONS = "qrbn";

/** The families, in the lobby's order. */
export const FAMILIES = [
  "Chess",
  "Chess variants: same pieces, other goals",
  "New setups and pawns",
  "New pieces",
  "Larger and smaller boards",
  "Drop games",
  "Xiangqi and shogi",
  "Boards and moves of their own",
  "Hidden information",
  "Games of chance",
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
    roles: CHESS_SET,
    promotions: CHESS_PROMOTIONS,
    hand: "",
    summary,
    style: "squares",
    sanChecks: true,
    ...extra,
  };
}

const [CHESS, OTHER_GOALS, SETUPS, NEW_PIECES, BOARDS, DROPS, EAST, OWN, HIDDEN, CHANCE] =
  FAMILIES;

/** A game of the wide family: no `Variant` number, known by its key alone. */
function wide(
  key: string,
  name: string,
  family: string,
  summary: string,
  examples: string,
  extra: Partial<GameInfo> = {},
): GameInfo {
  return chessLike(key, Variant.UNSPECIFIED, name, family, summary, { examples, ...extra });
}

/** Capablanca's letters: the archbishop (bishop + knight) and the chancellor (rook + knight). */
const CAPABLANCA_SET: PieceSet = { ...CHESS_SET, a: "archbishop", c: "chancellor" };
/** The same pieces under Embassy's and Grand's names. */
const GRAND_SET: PieceSet = { ...CHESS_SET, a: "cardinal", c: "marshal" };
const TEN_BY_EIGHT = new Geometry(10, 8);
const capablancaLike = (roles: PieceSet): Partial<GameInfo> => ({
  geometry: TEN_BY_EIGHT,
  pieces: "kqcarbnp",
  roles,
  promotions: "qcarbn",
});

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
  wide(
    "extinction",
    "Extinction",
    OTHER_GOALS,
    "No check: lose every piece of one kind (all pawns, the king, ...) and you lose.",
    "e4, Nf3, O-O",
    { promotions: "qrbnk" },
  ),
  wide(
    "massacre",
    "Massacre",
    OTHER_GOALS,
    "A full board of queens, rooks, bishops and knights: every move captures, and who cannot capture loses.",
    "Qxd5, Nxe4",
    { pieces: "qrbn", promotions: "" },
  ),
  wide(
    "corner",
    "Corner Chess",
    SETUPS,
    "Chess from a shuffled back rank with the kings in the corners, and no castling.",
    "e4, Nc3",
  ),
  wide(
    "fortress",
    "Fortress Chess",
    SETUPS,
    "Corner Chess with three more pawns guarding each king's corner.",
    "e4, Nc3",
  ),
  wide(
    "bkhorde",
    "BrainKing's Horde",
    SETUPS,
    "White's army against thirty-two black pawns: take them all, or be mated.",
    "e4, Nf3",
  ),
  wide(
    "berolina",
    "Berolina Chess",
    SETUPS,
    "Chess with pawns that move diagonally and capture straight ahead.",
    "e2d3, Nf3",
  ),
  wide(
    "legan",
    "Legan Chess",
    SETUPS,
    "The armies face each other across the long diagonal, their pawns stepping up and left.",
    "g4f5, Nf4",
  ),
  wide(
    "amazon",
    "Amazon",
    NEW_PIECES,
    "Chess with each queen replaced by an amazon, which moves as a queen or a knight.",
    "e4, Nf3, O-O",
    { pieces: "karbnp", roles: { ...CHESS_SET, a: "amazon" }, promotions: "arbn" },
  ),
  wide(
    "maharajah",
    "Maharajah",
    NEW_PIECES,
    "White's lone Maharajah, a royal queen that also jumps as a knight, against Black's whole army.",
    "Mf3, e5",
    { pieces: "mkqrbnp", roles: { ...CHESS_SET, m: "maharajah" } },
  ),
  wide(
    "knightmate",
    "Knightmate",
    NEW_PIECES,
    "King and knight swap roles: mate the royal knight; commoners step like kings.",
    "e4, Kf3, O-O",
    {
      pieces: "kmqrbp",
      roles: { ...CHESS_SET, k: "royal knight", m: "commoner" },
      promotions: "qrbm",
    },
  ),
  wide(
    "losalamos",
    "Los Alamos",
    BOARDS,
    "Chess on 6x6 without bishops: pawns step one square and promote to a queen, rook or knight.",
    "c3, Nd3",
    { geometry: new Geometry(6, 6), pieces: "kqrnp", promotions: "qrn" },
  ),
  wide(
    "janus",
    "Janus Chess",
    BOARDS,
    "Chess on 10x8 with two januses a side, which move as a bishop or a knight.",
    "e4, Ni3, O-O",
    {
      geometry: TEN_BY_EIGHT,
      pieces: "kqjrbnp",
      roles: { ...CHESS_SET, j: "janus" },
      promotions: "qjrbn",
    },
  ),
  wide(
    "embassy",
    "Embassy Chess",
    BOARDS,
    "Chess on 10x8 with a marshal (rook + knight) and a cardinal (bishop + knight) a side.",
    "e4, Nh3, O-O",
    capablancaLike(GRAND_SET),
  ),
  wide(
    "capablanca",
    "Capablanca Chess",
    BOARDS,
    "Chess on 10x8 with an archbishop (bishop + knight) and a chancellor (rook + knight) a side.",
    "e4, Nh3, O-O",
    capablancaLike(CAPABLANCA_SET),
  ),
  wide(
    "caparandom",
    "Capablanca Random",
    BOARDS,
    "Capablanca Chess from one of 21,836 shuffled back ranks, castling as in Chess960.",
    "e4, O-O",
    capablancaLike(CAPABLANCA_SET),
  ),
  wide(
    "grand",
    "Grand Chess",
    BOARDS,
    "Chess on 10x10 with a marshal and a cardinal; pawns promote only to pieces already lost.",
    "e5, Nh4",
    { ...capablancaLike(GRAND_SET), geometry: new Geometry(10, 10) },
  ),
  chessLike(
    "crazyhouse",
    Variant.CRAZYHOUSE,
    "Crazyhouse",
    DROPS,
    "Chess where a captured piece changes sides and may be dropped back onto the board.",
    { hand: "pnbrq" },
  ),
  wide(
    "loop",
    "Loop Chess",
    DROPS,
    "Crazyhouse where a promoted piece keeps its rank when it is captured and dropped again.",
    "e4, Nf3, P@e4",
    { hand: "pnbrq" },
  ),
  wide(
    "recycle",
    "Recycle Chess",
    DROPS,
    "Capture your own piece to put it in your hand and drop it later; a pawn on the last rank leaves the game.",
    "e4, g1e2, N@f3",
    { hand: "pnbrq", promotions: "", rules: { ownHands: true } },
  ),
  wide(
    "xiangqi",
    "Xiangqi",
    EAST,
    "Chinese chess on the points of a 9x10 board: the generals keep to their palaces, the river stops the elephants.",
    "h3e3, b1c3",
    {
      geometry: new Geometry(9, 10),
      pieces: "kabnrcp",
      roles: XIANGQI_SET,
      promotions: "",
      style: "points",
      // WXF, xiangqi's SAN, writes `+` for a move forward and marks no check.
      sanChecks: false,
    },
  ),
  wide(
    "shogi",
    "Shogi",
    EAST,
    "Japanese chess on 9x9: captured pieces change sides and are dropped back; most promote in the far three ranks.",
    "P-7f, c3c4, b2h8+, P@e5",
    {
      geometry: new Geometry(9, 9),
      pieces: "krbgsnlp",
      roles: SHOGI_SET,
      promotions: "",
      hand: "rbgsnlp",
      style: "ruled",
      sanChecks: false,
    },
  ),
  wide(
    "minishogi",
    "Minishogi",
    EAST,
    "Shogi on 5x5 with a king, gold, silver, bishop, rook and pawn a side; the last rank promotes.",
    "a2a3, P@c3",
    {
      geometry: new Geometry(5, 5),
      pieces: "krbgsp",
      roles: SHOGI_SET,
      promotions: "",
      hand: "rbgsp",
      style: "ruled",
      sanChecks: false,
    },
  ),
  wide(
    "cylinder",
    "Cylinder Chess",
    OWN,
    "Chess on a board rolled into a cylinder: the a- and h-files are neighbours, and pieces cross the seam.",
    "e4, Nf3, O-O",
    { wraps: true },
  ),
  wide(
    "knightrelay",
    "Knight Relay Chess",
    OWN,
    "A piece a knight's move from a friendly knight may also move as a knight; knights never capture or are captured.",
    "e4, Nf3",
  ),
  wide(
    "iceage",
    "Ice Age Chess",
    OWN,
    "Every empty square starts as an ice cube to capture; every twentieth move, empty squares and lonely pieces freeze.",
    "h2g3, g1f3",
    { roles: { ...CHESS_SET, "*": ICE } },
  ),
  wide(
    "cheshirecat",
    "Cheshire Cat Chess",
    OWN,
    "Each square a piece leaves vanishes; no castling, but a king's first move may be a queen's.",
    "e4, Nf3",
    { roles: { ...CHESS_SET, "*": HOLE }, rules: { vanishing: true } },
  ),
  wide(
    "ambiguous",
    "Ambiguous Chess",
    OWN,
    "You name only a target square; your opponent chooses which of your pieces goes there. Capture the king to win.",
    ">e4, g1f3>d5",
  ),
  wide(
    "dark",
    "Dark Chess",
    HIDDEN,
    "Each side sees only its own pieces and the squares they reach; capture the king to win.",
    "e4, Nf3",
  ),
  wide(
    "screen",
    "Screen Chess",
    HIDDEN,
    "Each side sets up its army on its own half behind a screen; both are revealed together, then it is chess without castling.",
    "c4c5, Nf3",
  ),
  wide(
    "crazyscreen",
    "Crazy Screen Chess",
    HIDDEN,
    "Screen Chess with the placement free: pawns may share files and stand on the first rank, bishops on one colour.",
    "c4c5, Nf3",
  ),
  wide(
    "dice",
    "Dice Chess",
    CHANCE,
    "The server rolls a die for each turn: the piece type it shows must move; capture the king to win.",
    "e4, Nf3",
  ),
  wide(
    "dice10x10",
    "Dice Chess 10x10",
    CHANCE,
    "Dice Chess on 10x10 with two kings and two queens a side; take both kings to win.",
    "e4, Nf3",
    { geometry: new Geometry(10, 10) },
  ),
  wide(
    "behemoth",
    "Behemoth Chess",
    CHANCE,
    "After every move a neutral Behemoth strides up to four squares in a random direction, destroying all in its path.",
    "e4, Nf3",
    { roles: { ...CHESS_SET, "*": BEHEMOTH } },
  ),
];

/**
 * The game of a variant or key, or null when the page does not know it. `Variant.UNSPECIFIED`
 * names no game: every game of the wide family has it, so only the key tells them apart.
 */
export function gameInfo(v: Variant | string): GameInfo | null {
  if (v === Variant.UNSPECIFIED || v === "") return null;
  return GAMES.find((g) => (typeof v === "string" ? g.key === v : g.variant === v)) ?? null;
}

/** What the letters of a game (by key or variant) are: chess's for a game the page does not know. */
export function pieceSet(v: Variant | string): PieceSet {
  return gameInfo(v)?.roles ?? CHESS_SET;
}

/** The pieces a hand holds in a game (the page's order), for any game: Crazyhouse's by default. */
export function handRoles(v: Variant | string): string {
  return gameInfo(v)?.hand || "pnbrq";
}

/** How a game's board is drawn: chess's squares for a game the page does not know. */
export function boardStyle(v: Variant | string): BoardStyle {
  return gameInfo(v)?.style ?? "squares";
}

/** Whether a SAN's `+` in a game gives check (not in shogi or xiangqi, whose SANs mark none). */
export function sanChecks(v: Variant | string): boolean {
  return gameInfo(v)?.sanChecks ?? true;
}

/** A pawn's promotions in a game, in the picker's order. */
export function promotionOrder(v: Variant | string): string {
  return gameInfo(v)?.promotions ?? CHESS_PROMOTIONS + "k";
}

/** What a move leaves behind in a game, where it is not chess's. */
export function houseRules(v: Variant | string): HouseRules {
  return gameInfo(v)?.rules ?? {};
}

/** Whether a game's edge files join (Cylinder). */
export function wraps(v: Variant | string): boolean {
  return gameInfo(v)?.wraps ?? false;
}
