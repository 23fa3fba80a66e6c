// Unit tests of the site-only games' board states (issue 30's Cylinder, Knight Relay, Recycle,
// Ice Age and Cheshire Cat): a FEN's `*` read as an ice cube or a vanished square and drawn as
// its game says, Recycle's hands of its own pieces, Cheshire Cat's `K`/`k` rights, Cylinder's
// seam, and what the page's sketch of a move leaves in each. Run with unit.ts' cases.

import { create } from "@bufbuild/protobuf";

import { drawBoard } from "../src/board.js";
import { NEUTRAL, isWhite, moveSquares, parseFen, sketch } from "../src/chess.js";
import { FAMILIES, gameInfo, houseRules, pieceSet, wraps } from "../src/games.js";
import { STANDARD } from "../src/geometry.js";
import { MoveNotationSchema } from "../src/gen/chessd/v1/chessd_pb.js";
import { movesOf, targetKinds, typedMove } from "../src/moves.js";
import { PocketStrips } from "../src/pocket.js";
import { RULES } from "../src/rulestext.js";
import { eq, throws } from "./check.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
const ICE_AGE_START = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/** The five games' starts (GAMES.md, section 2): each must fit its board and be drawn. */
export const SITE_STARTS: Record<string, string> = {
  cylinder: `${START} w KQkq - 0 1`,
  knightrelay: `${START} w KQkq - 0 1`,
  recycle: `${START}[] w KQkq - 0 1`,
  iceage: ICE_AGE_START,
  cheshirecat: `${START} w Kk - 0 1`,
};

const sq = (name: string) => STANDARD.parse(name);
const moves = (...ucis: string[]) => ucis.map((uci) => create(MoveNotationSchema, { uci, san: uci }));

export const SITE_CASES: [string, () => void][] = [];
const test = (name: string, f: () => void) => SITE_CASES.push([name, f]);

test("the site-only games: listed under their families, a `*` named by the game", () => {
  for (const key of Object.keys(SITE_STARTS)) {
    const g = gameInfo(key);
    if (!g) throw new Error(`no game ${key}`);
    if (!(FAMILIES as readonly string[]).includes(g.family)) throw new Error(`${key}: ${g.family}`);
  }
  eq(gameInfo("recycle")?.family, "Drop games", "Recycle among the drop games");
  eq(pieceSet("iceage")[NEUTRAL], "ice cube", "Ice Age's *");
  eq(pieceSet("cheshirecat")[NEUTRAL], "vanished square", "Cheshire Cat's *");
  eq(pieceSet("chess")[NEUTRAL], undefined, "chess has no *");
  eq([wraps("cylinder"), wraps("chess")], [true, false], "only Cylinder's edges join");
  eq(houseRules("recycle"), { ownHands: true }, "Recycle's hands");
  eq(houseRules("cheshirecat"), { vanishing: true }, "Cheshire Cat's squares");
  eq(houseRules("chess"), {}, "chess's");
});

test("Ice Age: a `*` is an ice cube, no side's, taken by a move onto it", () => {
  const p = parseFen(ICE_AGE_START);
  eq(p.board.filter((x) => x === NEUTRAL).length, 32, "32 cubes");
  eq([p.board[sq("a3")], p.board[sq("h6")], p.board[sq("h2")]], ["*", "*", "P"], "a3, h6, h2");
  eq(isWhite(NEUTRAL), false, "ice is not White's");
  throws(() => parseFen("rnbqkbnr/pppppppp/*********/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"), "9 cubes");
  throws(() => parseFen("rnbqkbnr/pppppppp/*******/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"), "7 cubes");
  // White's first move must take ice: a capture, marked as one, and the cube is gone for good.
  const legal = moves("h2g3", "g1f3");
  const by = movesOf(p.board, legal, { kind: "square", square: sq("h2") }, STANDARD);
  const kinds = targetKinds(p.board, { kind: "square", square: sq("h2") }, by, STANDARD);
  eq([...kinds], [[sq("g3"), "capture"]], "h2's one target, a capture");
  const after = sketch(p, "h2g3", "hxg3", houseRules("iceage"));
  eq([after.board[sq("g3")], after.board[sq("h2")]], ["P", ""], "the pawn on g3, h2 empty");
  eq(after.board.filter((x) => x === NEUTRAL).length, 31, "one cube fewer");
  eq(after.pockets, null, "no hand");
  // Black takes ice too: a capture for Black as well.
  const black = parseFen(ICE_AGE_START.replace(" w ", " b "));
  const bBy = movesOf(black.board, moves("g7f6"), { kind: "square", square: sq("g7") }, STANDARD);
  const bKinds = targetKinds(black.board, { kind: "square", square: sq("g7") }, bBy, STANDARD);
  eq([...bKinds], [[sq("f6"), "capture"]], "Black's g7xf6 a capture");
});

test("Ice Age drawn: a pale tile and cube on each `*`, spoken as ice cubes", () => {
  const p = parseFen(ICE_AGE_START);
  const svg = drawBoard(p.board, STANDARD, false, {}, pieceSet("iceage"));
  eq(svg.querySelectorAll(".sq[data-square]").length, 64, "64 squares under the ice");
  const ice = svg.querySelectorAll('.piece.neutral[data-piece="*"]');
  eq(ice.length, 32, "32 cubes drawn");
  eq(ice[0]?.getAttribute("data-piece-role"), "ice cube", "named");
  eq(
    Array.from(ice[0]?.children ?? []).map((c) => c.getAttribute("class")),
    ["tile", "top", "side", "face", "shine"],
    "tile, cube and highlight",
  );
  eq(svg.querySelectorAll(".sq.hole, .piece text.letter").length, 0, "no hole, no letter");
  const label = svg.getAttribute("aria-label") ?? "";
  if (!/Ice cubes: a3 b3 .* h6$/.test(label)) throw new Error(`spoken: ${label}`);
  if (/Black:.*\*/.test(label)) throw new Error(`ice spoken as Black's: ${label}`);
});

test("Cheshire Cat: a `*` is a vanished square, drawn as a hole; `K`/`k` are no castling", () => {
  const fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP*PPP/RNBQKBNR b Kk - 0 1";
  const p = parseFen(fen);
  eq(p.board[sq("e2")], NEUTRAL, "e2 vanished");
  eq(p.whiteToMove, false, "the rights field read past");
  const start = parseFen(SITE_STARTS.cheshirecat ?? "");
  const after = sketch(start, "e2e4", "e4", houseRules("cheshirecat"));
  eq(after.board, p.board, "the sketch of 1. e4 leaves e2 vanished, as the server's FEN");
  const svg = drawBoard(p.board, STANDARD, true, { highlight: [sq("e2"), sq("e4")] }, pieceSet("cheshirecat"));
  eq(svg.querySelectorAll(".sq[data-square]").length, 64, "the hole keeps its square's place");
  eq(
    Array.from(svg.querySelectorAll(".sq.hole")).map((h) => h.getAttribute("data-hole")),
    ["e2"],
    "one hole, e2",
  );
  eq(svg.querySelector('.sq.hole[data-square="e2"]')?.classList.contains("light"), false, "no colour");
  eq(svg.querySelectorAll('.piece[data-square="e2"], .piece.neutral').length, 0, "nothing drawn on it");
  eq(svg.querySelectorAll("[data-last]").length, 2, "the move's two squares highlighted");
  if (!/Vanished square: e2$/.test(svg.getAttribute("aria-label") ?? ""))
    throw new Error(`spoken: ${svg.getAttribute("aria-label")}`);
  // En passant: the taken pawn's square stays, the mover's vanishes.
  const ep = parseFen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  const took = sketch(ep, "e5d6", "exd6", houseRules("cheshirecat"));
  eq([took.board[sq("e5")], took.board[sq("d5")], took.board[sq("d6")]], ["*", "", "P"], "e.p.");
});

test("Recycle: its own pieces in each hand, taken by a self-capture, dropped; enemy pieces gone", () => {
  const p = parseFen(SITE_STARTS.recycle ?? "");
  eq(p.pockets, { white: { p: 0, n: 0, b: 0, r: 0, q: 0 }, black: { p: 0, n: 0, b: 0, r: 0, q: 0 } }, "[]: both hands empty");
  const rules = houseRules("recycle");
  // Ng1xe2: the knight takes its own pawn, which goes to White's hand.
  const self = sketch(p, "g1e2", "Nxe2", rules);
  eq([self.board[sq("e2")], self.pockets?.white.p], ["N", 1], "the pawn in White's hand");
  const by = movesOf(p.board, moves("g1e2", "g1f3"), { kind: "square", square: sq("g1") }, STANDARD);
  const kinds = targetKinds(p.board, { kind: "square", square: sq("g1") }, by, STANDARD);
  eq(kinds.get(sq("e2")), "capture", "a self-capture is marked as a capture");
  eq(kinds.get(sq("f3")), "move", "f3 is a move");
  // An enemy piece taken is gone for good; a pawn on the last rank leaves the game.
  const mid = parseFen("4k3/4P3/8/3p4/4P3/8/8/4K3[Qp] w - - 0 1");
  eq([mid.pockets?.white.q, mid.pockets?.black.p], [1, 1], "[Qp]: a queen and a pawn");
  const took = sketch(mid, "e4d5", "exd5", rules);
  eq([took.board[sq("d5")], took.pockets?.white], ["P", { p: 0, n: 0, b: 0, r: 0, q: 1 }], "no enemy pawn in hand");
  const gone = sketch(mid, "e7e8", "e8", rules);
  eq([gone.board[sq("e8")], gone.board[sq("e7")], gone.pockets?.white.p], ["", "", 0], "the pawn leaves");
  const dropped = sketch(mid, "Q@e5", "Q@e5", rules);
  eq([dropped.board[sq("e5")], dropped.pockets?.white.q], ["Q", 0], "the queen dropped");
  eq(typedMove("q@e5", moves("Q@e5", "e4e5"), mid.board, STANDARD)?.uci, "Q@e5", "a drop typed");
  // Drawn and dropped from as Loop's: White's own hand's queen is a button, as the server allows.
  const top = document.createElement("div");
  const bottom = document.createElement("div");
  new PocketStrips(top, bottom).update({
    pockets: mid.pockets,
    roles: gameInfo("recycle")?.hand ?? "",
    set: pieceSet("recycle"),
    geo: STANDARD,
    bottomWhite: true,
    own: true,
    legal: moves("Q@e5", "e4e5"),
    picked: null,
  });
  const button = (r: string) => bottom.querySelector<HTMLButtonElement>(`button[data-role="${r}"]`);
  eq([button("q")?.disabled, button("p")?.disabled], [false, true], "the queen droppable");
  eq(top.querySelector('[data-role="p"]')?.getAttribute("data-count"), "1", "Black's pawn shown");
});

test("Cylinder: the seam on both edge files, either way up; a move across it lights two squares", () => {
  const p = parseFen("4k3/8/8/P6p/8/8/8/4K3 w - h6 0 1");
  const highlight = moveSquares("a5h6", "axh6", p.board, STANDARD);
  eq(highlight, [sq("a5"), sq("h6")], "from and to");
  for (const flipped of [false, true]) {
    const svg = drawBoard(p.board, STANDARD, flipped, { highlight }, pieceSet("cylinder"), "squares", true);
    const seams = Array.from(svg.querySelectorAll("line.seam")).map(
      (l) => `${l.getAttribute("data-seam")}@${l.getAttribute("x1")}`,
    );
    eq(seams, flipped ? ["h@3", "a@797"] : ["a@3", "h@797"], `the seam${flipped ? ", flipped" : ""}`);
    // Squares lit, no line drawn between them: nothing crosses the board.
    eq(svg.querySelectorAll("[data-last]").length, 2, "two squares lit");
    eq(svg.querySelectorAll("line:not(.seam), path:not(.piece *), polyline").length, 0, "no line across");
    if (!/The a- and h-files join$/.test(svg.getAttribute("aria-label") ?? ""))
      throw new Error(`spoken: ${svg.getAttribute("aria-label")}`);
  }
  eq(drawBoard(p.board, STANDARD, false).querySelectorAll(".seam").length, 0, "chess has no seam");
  // En passant across the seam: White's a5 takes h5's pawn, which had passed h6.
  const after = sketch(p, "a5h6", "axh6", houseRules("cylinder"));
  eq([after.board[sq("h6")], after.board[sq("h5")], after.board[sq("a5")]], ["P", "", ""], "a5xh6 e.p.");
});

test("Knight Relay: a pawn's knight move takes nothing behind it", () => {
  const p = parseFen("4k3/8/8/8/3p4/2P5/1N6/4K3 w - - 0 1");
  const after = sketch(p, "c3d5", "d5", houseRules("knightrelay"));
  eq([after.board[sq("d5")], after.board[sq("d4")]], ["P", "p"], "d4's pawn stays");
  const by = movesOf(p.board, moves("c3d5"), { kind: "square", square: sq("c3") }, STANDARD);
  eq(targetKinds(p.board, { kind: "square", square: sq("c3") }, by, STANDARD).get(sq("d5")), "move", "a move");
});

test("the rules pages: each bundled file is a game's, found by its key", () => {
  for (const key of Object.keys(RULES)) if (!gameInfo(key)) throw new Error(`${key}.md is no game's`);
  for (const key of ["chess", "xiangqi", "minishogi", "crazyhouse"])
    if (!RULES[key]?.startsWith("# ")) throw new Error(`${key}'s rules: ${RULES[key]?.slice(0, 40)}`);
});
