// The pieces' drawings and names, by role: chess's six and the fairy pieces of the wide family
// (the compounds of bishop, rook or queen with a knight, the Maharajah, Knightmate's royal
// knight and commoner). A game says which role each of its FEN letters is (`PieceSet`, from
// games.ts), since one letter means different pieces in different games: `A` is Capablanca's
// archbishop but Amazon's amazon, `M` Knightmate's commoner but Maharajah's Maharajah. Every
// shape is drawn here from scratch (simple geometric figures on a 100 x 100 square), so the
// page ships no third-party artwork and fetches nothing. A FEN's `*` is no side's piece: Ice
// Age's ice cube (drawn here, as it can be taken) or Cheshire Cat's vanished square (a hole in
// the board, board.ts).

/** What each FEN letter (lower case) of a game is, by the role's name ("knight"). */
export type PieceSet = Readonly<Record<string, string>>;

/** Chess's letters: every game's unless it says otherwise. */
export const CHESS_SET: PieceSet = {
  p: "pawn",
  n: "knight",
  b: "bishop",
  r: "rook",
  q: "queen",
  k: "king",
};

/** The roles a game may give the FEN's `*`. */
export const ICE = "ice cube";
export const HOLE = "vanished square";
export const BEHEMOTH = "Behemoth";

export type Shape = [tag: string, attrs: Record<string, string | number>];

const circle = (cx: number, cy: number, r: number): Shape => ["circle", { cx, cy, r }];
const path = (d: string): Shape => ["path", { d }];
const base = (x: number, y: number, w: number, h: number): Shape => [
  "rect",
  { x, y, width: w, height: h, rx: 3 },
];

/** A figure's shapes drawn smaller elsewhere in the square, for the compound pieces. */
const placed = (shapes: Shape[], transform: string): Shape[] =>
  shapes.map(([tag, attrs]) => [tag, { ...attrs, transform }]);

const PAWN = [circle(50, 32, 12), path("M38 46 H62 L57 52 L64 78 H36 L43 52 Z")];
const ROOK = [
  path("M30 18 H39 V27 H46 V18 H54 V27 H61 V18 H70 V36 L64 41 V70 L70 76 H30 L36 70 V41 L30 36 Z"),
];
const KNIGHT = [
  path(
    "M32 76 C31 60 40 52 47 45 C41 48 35 53 28 51 C21 47 25 38 33 32 C39 26 43 20 45 13 " +
      "L52 21 C65 22 75 35 74 53 C74 63 70 70 70 76 Z",
  ),
];
const BISHOP = [
  circle(50, 15, 6),
  path("M50 21 C35 32 31 47 38 60 H62 C69 47 65 32 50 21 Z"),
  path("M40 62 H60 L65 76 H35 Z"),
];
const QUEEN = [
  path("M27 74 L19 32 L36 53 L42 24 L50 51 L58 24 L64 53 L81 32 L73 74 Z"),
  circle(19, 30, 5),
  circle(42, 21, 5),
  circle(58, 21, 5),
  circle(81, 30, 5),
];
const KING_BODY = path(
  "M50 36 C40 26 21 30 24 46 C26 58 32 66 34 74 H66 C68 66 74 58 76 46 C79 30 60 26 50 36 Z",
);
const CROSS = (x: number, y: number, s: number): Shape =>
  path(
    `M${x - s} ${y} H${x + s} V${y + 2 * s} H${x + 3 * s} V${y + 4 * s} H${x + s} ` +
      `V${y + 6.5 * s} H${x - s} V${y + 4 * s} H${x - 3 * s} V${y + 2 * s} H${x - s} Z`,
  );

/** The compounds: the piece on the left, a knight beside it on the right, one wide base. */
const LEFT = "translate(-9 16) scale(0.7)";
const RIGHT = "translate(31 16) scale(0.7)";
const WIDE_BASE = base(12, 76, 76, 12);
const withKnight = (shapes: Shape[]): Shape[] => [
  ...placed(shapes, LEFT),
  ...placed(KNIGHT, RIGHT),
  WIDE_BASE,
];

/** Each drawn figure's body shapes; `DETAIL` shapes are drawn in the contrasting colour. */
const SHAPES: Record<string, Shape[]> = {
  pawn: [...PAWN, base(28, 78, 44, 10)],
  rook: [...ROOK, base(24, 76, 52, 12)],
  knight: [...KNIGHT, base(24, 76, 52, 12)],
  bishop: [...BISHOP, base(25, 76, 50, 12)],
  queen: [...QUEEN, base(24, 74, 52, 14)],
  king: [CROSS(50, 5, 4), KING_BODY, base(28, 74, 44, 14)],
  archbishop: withKnight(BISHOP),
  chancellor: withKnight(ROOK),
  amazon: withKnight(QUEEN),
  // The Maharajah is an amazon that is royal: the king's cross above it.
  maharajah: [CROSS(50, 0, 3), ...withKnight(QUEEN)],
  // Knightmate's royal piece moves as a knight: a knight crowned with the king's cross.
  "royal knight": [
    CROSS(72, 2, 3),
    ...placed(KNIGHT, "translate(8 12) scale(0.85)"),
    base(24, 76, 52, 12),
  ],
  // The commoner moves as a king but is no king: the king's body under a plain ball.
  commoner: [circle(50, 22, 8), KING_BODY, base(28, 74, 44, 14)],
};

const KNIGHT_EYE = circle(43, 30, 2.5);
const DETAIL: Record<string, Shape[]> = {
  knight: [KNIGHT_EYE],
  bishop: [path("M47 36 L55 46")],
  king: [path("M36 60 H64")],
  queen: [path("M33 64 H67")],
  archbishop: placed([path("M47 36 L55 46"), KNIGHT_EYE], LEFT).concat(placed([KNIGHT_EYE], RIGHT)),
  chancellor: placed([KNIGHT_EYE], RIGHT),
  amazon: placed([path("M33 64 H67")], LEFT).concat(placed([KNIGHT_EYE], RIGHT)),
  maharajah: placed([path("M33 64 H67")], LEFT).concat(placed([KNIGHT_EYE], RIGHT)),
  "royal knight": placed([KNIGHT_EYE], "translate(8 12) scale(0.85)"),
  commoner: [path("M36 60 H64")],
};

/**
 * The ice cube: a pale-blue tile filling its square, a cube on it and a highlight on the cube's
 * face, each shape with its own class (the tile, the faces lit from above, the shine).
 */
export const ICE_SHAPES: Shape[] = [
  ["rect", { x: 4, y: 4, width: 92, height: 92, rx: 8, class: "tile" }],
  ["path", { d: "M24 40 L38 26 H78 L64 40 Z", class: "top" }],
  ["path", { d: "M64 40 L78 26 V64 L64 78 Z", class: "side" }],
  ["rect", { x: 24, y: 40, width: 40, height: 38, class: "face" }],
  ["path", { d: "M30 70 V47 H46", class: "shine" }],
];

/**
 * Behemoth Chess's Behemoth: a dark, horned bulk filling most of its square, with pale eyes,
 * drawn apart from both sides' pieces (it belongs to neither).
 */
export const BEHEMOTH_SHAPES: Shape[] = [
  ["path", { d: "M18 84 C14 60 20 40 34 32 L26 12 L42 28 C47 26 53 26 58 28 L74 12 L66 32 C80 40 86 60 82 84 Z", class: "hide" }],
  ["circle", { cx: 40, cy: 50, r: 5, class: "eye" }],
  ["circle", { cx: 60, cy: 50, r: 5, class: "eye" }],
  ["path", { d: "M38 68 Q50 76 62 68", class: "mouth" }],
];

/** The pieces a game names its own way but draws as another role. */
const DRAWN_AS: Record<string, string> = {
  janus: "archbishop",
  cardinal: "archbishop",
  marshal: "chancellor",
};

/** The role of a FEN letter in `set`, or null for a letter the set does not have. */
export function roleOf(letter: string, set: PieceSet = CHESS_SET): string | null {
  return set[letter.toLowerCase()] ?? null;
}

/** A role's shapes (body, then detail), or null when the page has no drawing of it. */
export function shapesOf(role: string): { body: Shape[]; detail: Shape[] } | null {
  const drawn = DRAWN_AS[role] ?? role;
  const body = SHAPES[drawn];
  return body ? { body, detail: DETAIL[drawn] ?? [] } : null;
}

/** "knight" for "n", "januses" for two "j" of Janus Chess; "X piece" for a letter unknown. */
export function roleName(letter: string, count = 1, set: PieceSet = CHESS_SET): string {
  const name = roleOf(letter, set) ?? `${letter.toUpperCase()} piece`;
  if (count === 1) return name;
  return name.endsWith("s") ? `${name}es` : `${name}s`;
}
