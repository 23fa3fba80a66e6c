// Unit tests of the page's board code, run inside Chromium by unit-run.ts (the board is SVG in
// a real DOM, so they run where the page does): positions of 10x10, 10x8 and 6x6 boards read
// from FEN and drawn, their squares named and placed, flipped, and malformed FENs refused. Each
// case throws on the first difference; `window.unitResults` collects the outcomes. The clicks
// on a drawn board are driven from unit-run.ts with a real mouse, through `mountInput`.

import { drawBoard, squareAt } from "../src/board.js";
import { clockText, renderClock } from "../src/clock.js";
import { timeControlName, timeControlOf } from "../src/deployment.js";
import { characterOf } from "../src/characters.js";
import {
  NEUTRAL,
  UNSEEN,
  castlingOf,
  moveSquares,
  parseFen,
  parseUci,
  sketch,
  turnParts,
} from "../src/chess.js";
import { FAMILIES, GAMES, boardStyle, gameInfo, pieceSet, promotionOrder } from "../src/games.js";
import { Geometry, STANDARD } from "../src/geometry.js";
import { BEHEMOTH, CHESS_SET, roleName, shapesOf } from "../src/pieces.js";
import { create } from "@bufbuild/protobuf";

import { eq, throws } from "./check.js";
import { SETUP_CASES } from "./unit-setup.js";
import { SITE_CASES, SITE_STARTS } from "./unit-site.js";

import {
  Color,
  type MoveNotation,
  MoveNotationSchema,
  Variant,
} from "../src/gen/chessd/v1/chessd_pb.js";
import { MoveInput } from "../src/input.js";
import { renderMarkdown } from "../src/markdown.js";
import { movesOf, targetKinds, typedMove } from "../src/moves.js";
import { PocketStrips, pocketText } from "../src/pocket.js";
import { randomHalf } from "../src/setup.js";
import { executionAlone, executions, marksAfter, twoPart } from "../src/turns.js";

/** Grand chess's start: 10x10, with the archbishop (a) and chancellor (c), "10" runs. */
export const GRAND_FEN =
  "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1";
/** Los Alamos chess's start: 6x6, no bishops. */
export const LOS_ALAMOS_FEN = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1";
/** Capablanca chess's start: 10x8. */
export const CAPABLANCA_FEN =
  "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";

const cases: [string, () => void][] = [];
const test = (name: string, f: () => void) => cases.push([name, f]);

test("byoyomi clocks read as main time, then the period and the periods left", () => {
  const c = {
    white: 72_000,
    black: 50_000,
    running: Color.BLACK,
    readAt: 1_000_000,
    period: 30_000,
    whitePeriods: 2,
    blackPeriods: 2,
  };
  eq(clockText(c, Color.WHITE, 1_000_000), "0:12 + 2 × 0:30", "main time");
  eq(clockText(c, Color.BLACK, 1_000_000), "0:20 · 2 periods", "in a period");
  eq(clockText(c, Color.BLACK, 1_025_000), "0:25 · last period", "one period gone");
  eq(clockText(c, Color.BLACK, 1_060_000), "0:00.0", "flag");
  eq(clockText({ ...c, period: 0 }, Color.WHITE, 1_000_000), "1:12", "Fischer");
  eq(timeControlOf("10+3x30b"), { minutes: 10, seconds: 30, periods: 3 }, "byoyomi");
  eq(timeControlOf("10+30b"), { minutes: 10, seconds: 30, periods: 1 }, "one period");
  eq(timeControlOf("5+3"), { minutes: 5, seconds: 3, periods: 0 }, "Fischer");
  eq(timeControlOf("10+3x30"), null, "periods without b");
  eq(timeControlName("10+3x30b"), "10 min + 3 × 30 s byoyomi", "name");
});

const G10 = new Geometry(10, 10);
const G6 = new Geometry(6, 6);
const G108 = new Geometry(10, 8);

test("square names and indices on 10x10, 10x8, 6x6", () => {
  eq(G10.name(0), "a1", "10x10 first");
  eq(G10.name(99), "j10", "10x10 last");
  eq(G10.parse("j10"), 99, "j10");
  eq(G10.parse("a10"), 90, "a10");
  eq(G10.parse("e4"), 34, "e4 on 10x10");
  eq(G108.parse("j8"), 79, "j8 on 10x8");
  eq(G108.parse("a9"), -1, "a9 off 10x8");
  eq(G6.parse("f6"), 35, "f6 on 6x6");
  eq(G6.parse("g1"), -1, "g1 off 6x6");
  eq(G6.parse("a7"), -1, "a7 off 6x6");
  eq(STANDARD.parse("i1"), -1, "i1 off 8x8");
  eq(G10.parse("a11"), -1, "no rank 11");
  throws(() => new Geometry(11, 8), "11 files");
  throws(() => new Geometry(0, 8), "no files");
});

test("a 10x10 FEN with 10-square empty runs", () => {
  const p = parseFen(GRAND_FEN, G10);
  eq(p.board.length, 100, "squares");
  eq(p.board[G10.parse("a10")], "r", "a10");
  eq(p.board[G10.parse("j10")], "r", "j10");
  eq(p.board[G10.parse("b10")], "", "b10");
  eq(p.board[G10.parse("e9")], "k", "e9");
  eq(p.board[G10.parse("f9")], "c", "f9 chancellor");
  eq(p.board[G10.parse("g2")], "A", "g2 archbishop");
  eq(p.board[G10.parse("j3")], "P", "j3");
  eq(p.board.filter((x) => x !== "").length, 40, "pieces");
  eq(p.whiteToMove, true, "side to move");
});

test("a 6x6 and a 10x8 FEN", () => {
  const p = parseFen(LOS_ALAMOS_FEN, G6);
  eq(p.board.length, 36, "6x6 squares");
  eq(p.board[G6.parse("d1")], "K", "d1");
  eq(p.board[G6.parse("f6")], "r", "f6");
  eq(p.board[G6.parse("c4")], "", "c4");
  const c = parseFen(CAPABLANCA_FEN, G108);
  eq(c.board.length, 80, "10x8 squares");
  eq(c.board[G108.parse("f1")], "K", "f1");
  eq(c.board[G108.parse("h8")], "c", "h8");
});

test("malformed FENs for the board are refused", () => {
  throws(() => parseFen("r9r/10/10/10/10/10/10/10/10/10 w - - 0 1", G10), "rank of 11");
  throws(() => parseFen("r8r/11/10/10/10/10/10/10/10/10 w - - 0 1", G10), "run of 11");
  throws(() => parseFen(GRAND_FEN, STANDARD), "10x10 read as 8x8");
  throws(() => parseFen(LOS_ALAMOS_FEN, STANDARD), "6x6 read as 8x8");
  throws(() => parseFen("rnqknr/pppppp/7/6/PPPPPP/RNQKNR w - - 0 1", G6), "run of 7 on 6");
  throws(() => parseFen("8/8/8/8/8/8/8/8 w - - 0 1", G10), "8 ranks on 10");
});

test("UCI with ranks up to 10, drops, and a wide board's en passant sketch", () => {
  eq(parseUci("a9a10", G10), { kind: "move", from: 80, to: 90, promotion: "" }, "a9a10");
  eq(parseUci("j9j10c", G10), { kind: "move", from: 89, to: 99, promotion: "c" }, "j9j10c");
  eq(parseUci("A@e5", G10), { kind: "drop", role: "a", to: 44 }, "A@e5");
  eq(parseUci("a9a10", STANDARD), null, "a10 off 8x8");
  eq(parseUci("f5f6", G6), { kind: "move", from: 29, to: 35, promotion: "" }, "f5f6 on 6x6");
  eq(parseUci("g1g2", G6), null, "g1 off 6x6");
  const before = parseFen("10/10/10/10/10/5pP3/10/10/10/10 w - f7 0 1", G10);
  const after = sketch(before, "g5f6", "gxf6");
  eq(after.board[G10.parse("f6")], "P", "pawn on f6");
  eq(after.board[G10.parse("f5")], "", "pawn taken en passant on f5");
  // A Berolina pawn's quiet diagonal step takes nothing: its neighbour on d2 stays.
  const berolina = parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  const stepped = sketch(berolina, "e2d3", "ed3");
  eq([stepped.board[STANDARD.parse("d3")], stepped.board[STANDARD.parse("d2")]], ["P", "P"], "Berolina e2d3");
});

test("a 10x10 position drawn: 100 squares, j and 10 on the edges, pieces on their squares", () => {
  const p = parseFen(GRAND_FEN, G10);
  const svg = drawBoard(p.board, G10, false, { highlight: [G10.parse("e2")] });
  eq(svg.getAttribute("viewBox"), "0 0 1000 1000", "viewBox");
  eq(svg.querySelectorAll("rect.sq.light, rect.sq.dark").length, 100, "squares");
  eq(svg.querySelectorAll(".piece").length, 40, "pieces");
  const at = (sel: string) => {
    const e = svg.querySelector(sel);
    if (!e) throw new Error(`no ${sel}`);
    return e;
  };
  eq(at('rect.sq[data-square="j10"]').getAttribute("x"), "900", "j10 x");
  eq(at('rect.sq[data-square="j10"]').getAttribute("y"), "0", "j10 y");
  eq(at('rect.sq[data-square="a1"]').getAttribute("class"), "sq dark", "a1 dark");
  eq(at('rect.sq[data-square="a1"]').getAttribute("y"), "900", "a1 y");
  eq(at('.piece[data-square="f9"]').getAttribute("data-piece"), "c", "chancellor on f9");
  eq(at('.piece[data-square="f9"]').getAttribute("transform"), "translate(500 100)", "f9 placed");
  // A piece with no drawn shape shows its letter.
  eq(at('.piece[data-square="g2"] text.letter').textContent, "A", "archbishop's letter");
  eq(
    Array.from(svg.querySelectorAll("text.coord[data-file]")).map((t) => t.textContent).join(""),
    "abcdefghij",
    "file letters",
  );
  eq(
    Array.from(svg.querySelectorAll("text.coord[data-rank]")).map((t) => t.textContent).join(","),
    "1,2,3,4,5,6,7,8,9,10",
    "rank numbers",
  );
  eq(svg.querySelectorAll("rect.sq.last").length, 1, "highlight");
  if (!/chancellor|C piece/.test(svg.getAttribute("aria-label") ?? ""))
    throw new Error(`spoken board lacks the chancellor: ${svg.getAttribute("aria-label")}`);
  // Flipped, j10 is at the bottom left.
  const flipped = drawBoard(p.board, G10, true);
  const j10 = flipped.querySelector('rect.sq[data-square="j10"]');
  eq([j10?.getAttribute("x"), j10?.getAttribute("y")], ["0", "900"], "j10 flipped");
});

test("a 6x6 position drawn, and points of the drawing mapped to its squares", () => {
  const p = parseFen(LOS_ALAMOS_FEN, G6);
  const svg = drawBoard(p.board, G6, false);
  eq(svg.getAttribute("viewBox"), "0 0 600 600", "viewBox");
  eq(svg.querySelectorAll("rect.sq.light, rect.sq.dark").length, 36, "squares");
  eq(svg.querySelectorAll(".piece").length, 24, "pieces");
  const box = document.createElement("div");
  box.style.width = "360px";
  document.body.append(box);
  box.append(svg);
  const r = svg.getBoundingClientRect();
  eq([Math.round(r.width), Math.round(r.height)], [360, 360], "drawn size");
  // The centre of each square, 60 px a side, maps back to it, either way up.
  for (let i = 0; i < G6.size; i++) {
    for (const flipped of [false, true]) {
      const [x, y] = G6.origin(i, flipped);
      const cx = r.left + ((x + 50) / 600) * r.width;
      const cy = r.top + ((y + 50) / 600) * r.height;
      eq(squareAt(svg, G6, cx, cy, flipped), i, `${G6.name(i)} flipped=${flipped}`);
    }
  }
  eq(squareAt(svg, G6, r.left + 5, r.bottom - 5, false), G6.parse("a1"), "a1 bottom left");
  eq(squareAt(svg, G6, r.left + 5, r.bottom - 5, true), G6.parse("f6"), "f6 when flipped");
  eq(squareAt(svg, G6, r.right + 5, r.top + 5, false), -1, "off the board");
  box.remove();
});

test("a 10x8 board is wider than tall and maps a point on j8", () => {
  const p = parseFen(CAPABLANCA_FEN, G108);
  const svg = drawBoard(p.board, G108, false);
  eq(svg.getAttribute("viewBox"), "0 0 1000 800", "viewBox");
  const box = document.createElement("div");
  box.style.width = "500px";
  document.body.append(box);
  box.append(svg);
  const r = svg.getBoundingClientRect();
  eq([Math.round(r.width), Math.round(r.height)], [500, 400], "drawn size");
  eq(squareAt(svg, G108, r.right - 10, r.top + 10, false), G108.parse("j8"), "j8");
  eq(squareAt(svg, G108, r.right - 10, r.top + 10, true), G108.parse("a1"), "a1 flipped");
  box.remove();
});

test("the legal moves of a pick on a 10x10 board, by target square", () => {
  const p = parseFen(GRAND_FEN, G10);
  const legal = ["e3e4", "e3e5", "b2c4", "f2f6"].map((uci) =>
    create(MoveNotationSchema, { uci, san: uci }),
  );
  const by = movesOf(p.board, legal, { kind: "square", square: G10.parse("e3") }, G10);
  eq([...by.keys()].map((s) => G10.name(s)), ["e4", "e5"], "e3's targets");
});

/**
 * Each wide game's start (an example for those drawn at creation), as the rules crate's
 * `crates/rules/src/wide/<key>.rs` gives it: every letter on it must be one the page draws.
 */
const WIDE_STARTS: Record<string, string> = {
  losalamos: LOS_ALAMOS_FEN,
  janus: "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1",
  embassy: "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1",
  capablanca: CAPABLANCA_FEN,
  caparandom: "rbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR w KQkq - 0 1",
  grand: GRAND_FEN,
  corner: "krnbqnbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQBNRK w - - 0 1",
  fortress: "krnbqnbr/pppppppp/ppp5/8/8/5PPP/PPPPPPPP/RBNQBNRK w - - 0 1",
  bkhorde: "ppp2ppp/pppppppp/pppppppp/pppppppp/3pp3/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
  extinction: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  massacre: "rBbnbqNn/bQrnQRRr/rrqbNqQb/bBNqbNBN/bNRrrrBQ/QRQqRnNB/qBRnnqNQ/BBQnqnRR w - - 0 1",
  maharajah: "rnbqkbnr/pppppppp/8/8/8/8/8/4M3 w kq - 0 1",
  amazon: "rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1",
  knightmate: "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
  berolina: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  legan: "knbrp3/bqpp4/npp5/rp1p3P/p3P1PR/5PPN/4PPQB/3PRBNK w - - 0 1",
  loop: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
  xiangqi: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
  shogi: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1",
  minishogi: "rbsgk/4p/5/P4/KGSBR[] w - - 0 1",
  ...SITE_STARTS,
  dice: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 4",
  dice10x10: "rnbqkkqbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKQBNR w - - 0 1 2",
  behemoth: "rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  // As White's seat is shown it: the server never sends a player the whole board.
  dark: "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -",
  ambiguous: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 -",
  // As White's seat is shown its setup: its own half, the other empty.
  screen: "8/8/8/8/2P2P2/P2PP2P/1P4P1/RNBQKBNR w - - 0 1",
  crazyscreen: "8/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1",
};

test("Screen Chess: a placement drawn at random keeps the rules, on the seat's own half", () => {
  for (const color of [Color.WHITE, Color.BLACK]) {
    for (let i = 0; i < 200; i++) {
      const half = randomHalf(color);
      const rows = half.split("/");
      eq(rows.length, 4, "four rows");
      const board = parseFen(color === Color.WHITE ? `8/8/8/8/${half} w - - 0 1` : `${half}/8/8/8/8 w - - 0 1`).board;
      const squares = board.map((p, i) => ({ p, file: STANDARD.fileOf(i), rank: STANDARD.rankOf(i) }));
      const mine = squares.filter((s) => s.p && (color === Color.WHITE) === (s.p === s.p.toUpperCase()));
      eq(mine.length, 16, `${half}: sixteen pieces`);
      const pawns = mine.filter((s) => s.p?.toLowerCase() === "p");
      eq(new Set(pawns.map((s) => s.file)).size, 8, `${half}: a pawn on each file`);
      const first = color === Color.WHITE ? 0 : 7;
      eq(pawns.some((s) => s.rank === first), false, `${half}: no pawn on the first rank`);
      const bishops = mine.filter((s) => s.p?.toLowerCase() === "b").map((s) => (s.file + s.rank) % 2);
      eq(bishops.length === 2 && bishops[0] !== bishops[1], true, `${half}: bishops on both colours`);
      const home = color === Color.WHITE ? [0, 1, 2, 3] : [4, 5, 6, 7];
      eq(mine.every((s) => home.includes(s.rank)), true, `${half}: on its own half`);
    }
  }
});

test("Dark Chess: a `?` is a square the viewer does not see, drawn as fog with nothing on it", () => {
  const pos = parseFen(WIDE_STARTS.dark ?? "");
  eq(pos.board.filter((p) => p === "?").length, 32, "Black's half unseen");
  eq(pos.whiteToMove, true, "White to move");
  const svg = drawBoard(pos.board, STANDARD, false);
  eq(svg.querySelectorAll("[data-fog]").length, 32, "a fog square on each");
  eq(svg.querySelector('[data-fog="e7"]') !== null, true, "e7 in the fog");
  eq(svg.querySelectorAll(".piece").length, 16, "only White's pieces drawn");
  eq((svg.getAttribute("aria-label") ?? "").includes("32 squares unseen"), true, "spoken");
  const blind = parseFen("????????/????????/????????/????????/????????/????????/????????/???????? b - -");
  eq(blind.whiteToMove, false, "a spectator is told whose turn it is");
  eq(drawBoard(blind.board, STANDARD, false).querySelectorAll(".piece").length, 0, "and no piece");
});

test("games of chance: the die read from the FEN and shown to the side to move; the Behemoth drawn; a move's draw read past", () => {
  eq(parseFen(WIDE_STARTS.dice ?? "").roll, 4, "Dice Chess's seventh field");
  eq(parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").roll, null, "no die in chess");
  eq(parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+0").roll, null, "Three-check's counters are no die");
  const strip = document.createElement("div");
  renderClock(strip, { side: Color.WHITE, name: "", you: false, clocks: null, serverNow: 0, checksLeft: null, presence: null, roll: 3 });
  eq(strip.querySelector(".die")?.textContent, "Die 3: bishop to move", "the strip's die");
  renderClock(strip, { side: Color.WHITE, name: "", you: false, clocks: null, serverNow: 0, checksLeft: null, presence: null, roll: null });
  eq(strip.querySelector(".die"), null, "no die when none is rolled");
  eq(pieceSet("behemoth")[NEUTRAL], BEHEMOTH, "Behemoth Chess's *");
  const g = gameInfo("behemoth");
  const svg = drawBoard(parseFen(WIDE_STARTS.behemoth ?? "").board, STANDARD, false, {}, g?.roles, g?.style);
  const beast = svg.querySelector('.piece.neutral[data-piece-role="Behemoth"]');
  eq(beast?.getAttribute("data-square"), "d4", "the Behemoth on d4");
  eq(beast?.querySelectorAll(".hide").length, 1, "drawn as the beast, not as ice");
  const uci = parseUci("e2e4~SE4");
  eq(uci?.kind === "move" ? [uci.from, uci.to, uci.promotion] : null, [STANDARD.parse("e2"), STANDARD.parse("e4"), ""], "e2e4~SE4 read as e2e4");
  eq(parseUci("e7e8b~3")?.kind === "move", true, "a promotion with a roll");
});

test("every game's entry: its family listed, its letters drawn and named, its promotions and hand among them", () => {
  eq(new Set(GAMES.map((g) => g.key)).size, GAMES.length, "keys unique");
  const wide = GAMES.filter((g) => g.variant === Variant.UNSPECIFIED).map((g) => g.key);
  eq(wide.sort(), Object.keys(WIDE_STARTS).sort(), "the wide family, by key");
  for (const g of GAMES) {
    if (!(FAMILIES as readonly string[]).includes(g.family)) throw new Error(`${g.key}: family ${g.family}`);
    for (const letter of g.pieces) {
      const role = g.roles[letter];
      if (!role) throw new Error(`${g.key}: no role for ${letter}`);
      if (!shapesOf(role) && !characterOf(letter, g.roles))
        throw new Error(`${g.key}: no drawing of the ${role}`);
    }
    for (const letter of g.promotions + g.hand)
      if (!g.pieces.includes(letter)) throw new Error(`${g.key}: ${letter} is not one of its pieces`);
    eq(gameInfo(g.key)?.name, g.name, `${g.key} found by key`);
    if (g.variant !== Variant.UNSPECIFIED) eq(gameInfo(g.variant)?.key, g.key, `${g.key} by number`);
    else if (!g.examples) throw new Error(`${g.key}: no example moves`);
  }
  // The families keep their order in the lobby: each first appears after the one before it.
  const firsts = FAMILIES.map((f) => GAMES.findIndex((g) => g.family === f));
  eq(firsts.every((i) => i >= 0), true, "every family has a game");
  eq([...firsts].sort((a, b) => a - b), firsts, "families in the lobby's order");
  eq(gameInfo(Variant.UNSPECIFIED), null, "UNSPECIFIED is no game");
  eq(gameInfo(""), null, "an empty key is no game");
});

test("each wide game's start fits its board, and every piece on it is drawn as its role", () => {
  for (const [key, fen] of Object.entries(WIDE_STARTS)) {
    const g = gameInfo(key);
    if (!g) throw new Error(`no game ${key}`);
    const p = parseFen(fen, g.geometry);
    for (const piece of p.board)
      if (piece !== "" && piece !== NEUTRAL && piece !== UNSEEN && !g.pieces.includes(piece.toLowerCase()))
        throw new Error(`${key}: ${piece} is not among its pieces ${g.pieces}`);
    const svg = drawBoard(p.board, g.geometry, false, {}, g.roles, g.style);
    eq(svg.querySelectorAll(".sq[data-square]").length, g.geometry.size, `${key} squares`);
    eq(svg.querySelectorAll(".piece text.letter").length, 0, `${key}: no lettered disc`);
  }
  eq(gameInfo("grand")?.geometry.size, 100, "Grand is 10x10");
  eq(gameInfo("capablanca")?.geometry.size, 80, "Capablanca is 10x8");
  eq(gameInfo("losalamos")?.geometry.size, 36, "Los Alamos is 6x6");
});

test("one letter, the game's piece: names and drawings by game", () => {
  eq(roleName("a", 1, pieceSet("capablanca")), "archbishop", "Capablanca's A");
  eq(roleName("a", 1, pieceSet("amazon")), "amazon", "Amazon's A");
  eq(roleName("a", 1, pieceSet("grand")), "cardinal", "Grand's A");
  eq(roleName("c", 2, pieceSet("embassy")), "marshals", "Embassy's C");
  eq(roleName("j", 2, pieceSet("janus")), "januses", "Janus's J");
  eq(roleName("m", 1, pieceSet("knightmate")), "commoner", "Knightmate's M");
  eq(roleName("k", 1, pieceSet("knightmate")), "royal knight", "Knightmate's K");
  eq(roleName("m", 1, pieceSet("maharajah")), "maharajah", "Maharajah's M");
  eq(pieceSet("no such game"), CHESS_SET, "an unknown game's letters are chess's");
  const p = parseFen(GRAND_FEN, G10);
  const svg = drawBoard(p.board, G10, false, {}, pieceSet("grand"));
  eq(svg.querySelector('.piece[data-square="g2"]')?.getAttribute("data-piece-role"), "cardinal", "g2");
  eq(svg.querySelector('.piece[data-square="f2"]')?.getAttribute("data-piece-role"), "marshal", "f2");
  if (!/marshal f2/.test(svg.getAttribute("aria-label") ?? ""))
    throw new Error(`spoken board lacks the marshal: ${svg.getAttribute("aria-label")}`);
});

test("castling's squares: the king's own move on 10 files, and king takes rook", () => {
  const squares = (fen: string, geo: Geometry, uci: string, san: string) => {
    const c = castlingOf(parseFen(fen, geo).board, uci, san, geo);
    return c && [c.king, c.kingTo, c.rook, c.rookTo].map((i) => geo.name(i));
  };
  const janus = "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1";
  eq(squares(janus, G108, "e1i1", "O-O"), ["e1", "i1", "j1", "h1"], "Janus short");
  eq(squares(janus, G108, "e1b1", "O-O-O"), ["e1", "b1", "a1", "c1"], "Janus long");
  eq(squares(janus, G108, "e1h1", "O-O"), ["e1", "h1", "j1", "g1"], "Embassy short");
  const capa = "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1";
  eq(squares(capa, G108, "f1i1", "O-O"), ["f1", "i1", "j1", "h1"], "Capablanca short");
  eq(squares(capa, G108, "f1c1", "O-O-O"), ["f1", "c1", "a1", "d1"], "Capablanca long");
  eq(squares(capa, G108, "f1j1", "O-O+"), ["f1", "i1", "j1", "h1"], "Capablanca Random, king takes rook");
  const chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  eq(squares(chess, STANDARD, "e1g1", "O-O"), ["e1", "g1", "h1", "f1"], "chess short");
  eq(squares(chess, STANDARD, "e1c1", "O-O-O"), ["e1", "c1", "a1", "d1"], "chess long");
});

const G9 = new Geometry(9, 9);
const G910 = new Geometry(9, 10);
const SHOGI_MID =
  "+Rnsgkg1nl/9/ppppppp+pp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL[RPp] b - - 0 1";
const shogiPiece = (svg: Element, sq: string) => svg.querySelector(`.piece[data-square="${sq}"]`);
const glyphs = (node: Element | null) =>
  Array.from(node?.querySelectorAll("text.glyph") ?? []).map((t) => t.textContent).join("");
const moves = (...ucis: string[]) =>
  ucis.map((u) => {
    const [uci, san] = u.split(" ");
    return create(MoveNotationSchema, { uci, san: san ?? uci });
  });

test("a shogi FEN: a promoted piece is one piece, `+` and its letter; the hands in brackets", () => {
  const p = parseFen(SHOGI_MID, G9);
  eq(p.board[G9.parse("a9")], "+R", "sente's dragon on a9 (9a)");
  eq(p.board[G9.parse("h7")], "+p", "gote's tokin on h7");
  eq(p.board[G9.parse("i9")], "l", "the rank still has nine points");
  eq([p.pockets?.white.r, p.pockets?.white.p, p.pockets?.black.p], [1, 1, 1], "hands");
  eq(p.whiteToMove, false, "gote to move");
  throws(() => parseFen("+9/9/9/9/9/9/9/9/9[] w - - 0 1", G9), "a + on no piece");
  throws(() => parseFen("++P8/9/9/9/9/9/9/9/9[] w - - 0 1", G9), "a doubled +");
});

test("shogi's moves: `+` promotes, a drop names its piece, a piece taken joins the hand unpromoted", () => {
  eq(parseUci("b2h8+", G9), { kind: "move", from: 10, to: 70, promotion: "+" }, "b2h8+");
  eq(parseUci("G@e5", G9), { kind: "drop", role: "g", to: 40 }, "G@e5");
  eq(parseUci("b2h8=", G9), null, "= is SAN's, not UCI's");
  const p = parseFen("4k4/9/6+p2/9/9/9/9/1B7/4K4[] w - - 0 1", G9);
  const took = sketch(p, "b2g7+", "Bx3c+");
  eq(took.board[G9.parse("g7")], "+B", "the bishop turned over on g7");
  eq(took.pockets?.white, { p: 1, n: 0, b: 0, r: 0, q: 0 }, "the tokin taken is a pawn in hand");
  eq(took.promoted, [], "no Crazyhouse mark");
  const dropped = sketch(took, "P@e5", "P*5e");
  eq(dropped.board[G9.parse("e5")], "p", "gote has no pawn: the sketch drops what the move names");
});

test("shogi's promotion choice, drops and typed moves among the legal moves", () => {
  const p = parseFen("4k4/9/9/9/9/9/9/1B7/4K4[P] w - - 0 1", G9);
  const legal = moves("b2h8 B-2b=", "b2h8+ B-2b+", "P@e5 P*5e", "P@e6 P*5d");
  const by = movesOf(p.board, legal, { kind: "square", square: G9.parse("b2") }, G9);
  eq(by.get(G9.parse("h8"))?.map((m) => m.uci), ["b2h8", "b2h8+"], "both choices on h8");
  const drops = movesOf(p.board, legal, { kind: "pocket", role: "p" }, G9);
  eq([...drops.keys()].map((s) => G9.name(s)), ["e5", "e6"], "the pawn's drops");
  eq(typedMove("B-2b+", legal, p.board, G9)?.uci, "b2h8+", "SAN + promotes");
  eq(typedMove("B-2b=", legal, p.board, G9)?.uci, "b2h8", "SAN = declines");
  eq(typedMove("b2h8+", legal, p.board, G9)?.uci, "b2h8+", "UCI with +");
  eq(typedMove("p@e6", legal, p.board, G9)?.uci, "P@e6", "a drop in lower case");
  eq(promotionOrder("shogi"), "", "no chess promotions");
});

test("shogi's hands: both shown, the seat's own pieces droppable as the legal moves say", () => {
  const top = document.createElement("div");
  const bottom = document.createElement("div");
  const strips = new PocketStrips(top, bottom);
  const p = parseFen(SHOGI_MID, G9);
  strips.update({
    pockets: p.pockets,
    roles: "rbgsnlp",
    set: pieceSet("shogi"),
    geo: G9,
    bottomWhite: true,
    own: true,
    legal: moves("P@e5"),
    picked: null,
  });
  const button = (r: string) => bottom.querySelector<HTMLButtonElement>(`button[data-role="${r}"]`);
  eq(Array.from(bottom.querySelectorAll("[data-role]")).map((b) => b.getAttribute("data-role")).join(""), "rbgsnlp", "sente's hand in order");
  eq([button("p")?.disabled, button("r")?.disabled, button("g")?.disabled], [false, true, true], "only the legal drop enabled");
  eq(button("p")?.getAttribute("aria-label"), "Drop a pawn (1 in your pocket)", "named");
  eq(glyphs(button("r")), "飛", "the rook in hand is 飛");
  eq(top.querySelectorAll("button").length, 0, "gote's hand is not the seat's");
  eq(top.querySelector('[data-role="p"]')?.getAttribute("data-count"), "1", "gote holds a pawn");
  // Gote's hand is at the top: its pieces point down, at sente.
  eq(top.querySelector('[data-role="p"] g.piece g')?.getAttribute("transform"), "rotate(180 50 50)", "gote's turned");
  eq(button("p")?.querySelector("g.piece g"), null, "sente's upright");
  eq(pocketText(false, p.pockets?.black ?? {}, "rbgsnlp", pieceSet("shogi")), "Black's pocket: 1 pawn", "spoken");
});

test("shogi drawn: ruled cells, kanji on pentagons, gote's turned, promoted in red, USI's edges", () => {
  const p = parseFen(SHOGI_MID, G9);
  const svg = drawBoard(p.board, G9, false, { highlight: [G9.parse("e5")] }, pieceSet("shogi"), boardStyle("shogi"));
  eq(svg.querySelectorAll("rect.sq.cell").length, 81, "81 cells");
  eq(svg.querySelectorAll("rect.sq.light, rect.sq.dark").length, 0, "not checkered");
  eq(svg.querySelectorAll("line.grid").length, 16, "eight lines each way inside the edge");
  eq(svg.querySelectorAll("circle.star").length, 4, "four star points");
  eq(glyphs(shogiPiece(svg, "e1")), "王", "sente's king");
  eq(glyphs(shogiPiece(svg, "e9")), "玉", "gote's king");
  eq(glyphs(shogiPiece(svg, "a9")), "龍", "the dragon");
  eq(shogiPiece(svg, "a9")?.querySelector("text.glyph.promoted") !== null, true, "promoted in red");
  eq(glyphs(shogiPiece(svg, "h7")), "と", "the tokin");
  eq(glyphs(shogiPiece(svg, "b2")), "角", "the bishop");
  eq(shogiPiece(svg, "a1")?.querySelector("path.body") !== null, true, "a pentagon");
  eq(shogiPiece(svg, "a1")?.querySelector("g[transform]"), null, "sente's lance upright");
  eq(shogiPiece(svg, "a9")?.querySelector("g[transform]"), null, "sente's dragon upright");
  eq(shogiPiece(svg, "i9")?.querySelector("g")?.getAttribute("transform"), "rotate(180 50 50)", "gote's lance turned");
  eq(shogiPiece(svg, "i9")?.getAttribute("data-piece-role"), "lance", "its role");
  const flipped = drawBoard(p.board, G9, true, {}, pieceSet("shogi"), "ruled");
  eq(shogiPiece(flipped, "a1")?.querySelector("g")?.getAttribute("transform"), "rotate(180 50 50)", "flipped: sente's turned");
  eq(shogiPiece(flipped, "i9")?.querySelector("g[transform]"), null, "flipped: gote's upright");
  const file = (f: string) => svg.querySelector(`.coord[data-file="${f}"]`)?.textContent;
  const rank = (r: number) => svg.querySelector(`.coord[data-rank="${r}"]`)?.textContent;
  eq([file("a"), file("i"), rank(9), rank(1)], ["9", "1", "a", "i"], "a9 is 9a, i1 is 1i");
  const promo = new Set(["成銀", "成桂", "成香"]);
  const all = drawBoard(parseFen("+S+N+L+B+P4/9/9/9/9/9/9/9/9[] w - - 0 1", G9).board, G9, false, {}, pieceSet("shogi"), "ruled");
  const seen = Array.from(all.querySelectorAll(".piece")).map((n) => glyphs(n));
  eq(seen.filter((g) => promo.has(g)).length, 3, "the promoted silver, knight and lance: two characters");
  eq(seen.includes("馬"), true, "the horse");
});

test("xiangqi drawn: pieces on the points of a grid, the river, the palaces, each side's characters", () => {
  const fen = WIDE_STARTS.xiangqi ?? "";
  const p = parseFen(fen, G910);
  const svg = drawBoard(p.board, G910, false, { highlight: [G910.parse("e2")] }, pieceSet("xiangqi"), boardStyle("xiangqi"));
  eq(svg.querySelectorAll("circle.sq.cell").length, 90, "90 points");
  eq(svg.querySelector("circle.sq.last")?.getAttribute("data-last"), "e2", "the last move on a point");
  // Ten ranks across, the two edge files whole, seven files cut by the river, two crossings.
  eq(svg.querySelectorAll("line.grid").length, 10 + 2 + 7 * 2 + 4, "grid lines");
  eq(svg.querySelector(".river")?.textContent?.includes("楚 河"), true, "the river");
  const piece = (sq: string) => svg.querySelector(`.piece[data-square="${sq}"]`);
  eq(glyphs(piece("e1")), "帥", "Red's general");
  eq(glyphs(piece("e10")), "將", "Black's general");
  eq([glyphs(piece("b3")), glyphs(piece("b8"))], ["炮", "砲"], "the cannons");
  eq([glyphs(piece("a4")), glyphs(piece("a7"))], ["兵", "卒"], "the soldiers");
  eq([glyphs(piece("c1")), glyphs(piece("c10"))], ["相", "象"], "the elephants");
  eq([glyphs(piece("a1")), glyphs(piece("b10")), glyphs(piece("d1"))], ["俥", "馬", "仕"], "chariot, horse, advisor");
  eq(piece("e1")?.classList.contains("xiangqi"), true, "a disc");
  eq(piece("e10")?.querySelector("g[transform]"), null, "Black's upright");
  // The general stands on the point's centre: its square's origin, as for every piece.
  eq(piece("e1")?.getAttribute("transform"), "translate(400 900)", "e1's point");
  const label = (side: string, f: string) =>
    svg.querySelector(`.coord[data-side="${side}"][data-file="${f}"]`)?.textContent;
  eq([label("red", "a"), label("red", "i"), label("black", "a"), label("black", "i")], ["九", "一", "1", "9"], "files from each side's right");
  const soldier = parseFen("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", G910);
  const from = G910.parse("e6");
  const kinds = targetKinds(soldier.board, { kind: "square", square: from }, movesOf(soldier.board, moves("e6d6", "e6e7"), { kind: "square", square: from }, G910), G910);
  eq(kinds.get(G910.parse("d6")), "move", "a soldier's step aside takes nothing");
  const stepped = sketch(parseFen("4k4/9/9/9/4P4/3p5/9/9/9/4K4 w - - 0 1", G910), "e6d6", "e6d6");
  eq(stepped.board[G910.parse("d5")], "p", "and the sketch leaves the piece behind it");
});

test("a rules page's table (xiangqi's and shogi's pieces) rendered as a table", () => {
  const els = renderMarkdown("Before:\n\n| letter | piece |\n| --- | --- |\n| `K` | **king** |\n| `G` | gold |\n\nAfter.");
  eq(els.map((e) => e.tagName), ["P", "TABLE", "P"], "a paragraph, a table, a paragraph");
  const t = els[1];
  eq(Array.from(t?.querySelectorAll("th") ?? []).map((c) => c.textContent), ["letter", "piece"], "header");
  eq(t?.querySelectorAll("tbody tr").length, 2, "two rows, the rule skipped");
  eq(t?.querySelector("tbody td code")?.textContent, "K", "inline marks in cells");
  const inPara = renderMarkdown("a | b\nc");
  eq(inPara.map((e) => e.tagName), ["P"], "a | inside a paragraph is text");
});

/** Mounts a playable 10x10 board at the page's top left; moves picked land in `played`. */
test("Ambiguous Chess: a turn's parts, its squares, its sketch and the pending target", () => {
  eq(turnParts("g1f3>d5=d7d5"), { execution: "g1f3", mark: "d5", forced: "d7d5" }, "whole");
  eq(turnParts(">a3"), { execution: "", mark: "a3", forced: "" }, "a mark alone");
  eq(turnParts("a2a1n>g1"), { execution: "a2a1n", mark: "g1", forced: "" }, "promotion");
  eq(turnParts("e2e4"), null, "a plain move");
  eq(turnParts("e2e4~3"), null, "a die's move");
  const sq = (n: string) => STANDARD.parse(n);
  eq(moveSquares("g1f3>d5=d7d5", "", null), [sq("g1"), sq("f3"), sq("d7"), sq("d5")], "squares");
  eq(moveSquares("g1f3>a6", "", null), [sq("g1"), sq("f3"), sq("a6")], "a pending mark");
  eq(moveSquares(">a3", "", null), [sq("a3")], "a first mark");
  const start = parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 1 1 f3");
  eq(start.pending, sq("f3"), "the seventh field");
  eq(parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 4").pending, null, "a die");
  const after = sketch(start, "g1f3>d5=d7d5", "g1f3>d5=d7d5");
  eq([after.board[sq("f3")], after.board[sq("g1")], after.board[sq("d5")]], ["N", "", "p"], "sketch");
  eq([after.whiteToMove, after.pending], [true, null], "White marks next");
});

test("Ambiguous Chess: the server's turns split into executions and the marks after each", () => {
  const legal = ["g1f3>d5=d7d5", "g1f3>a6", "f2f3>a6", "a1e1"].map((u) =>
    create(MoveNotationSchema, { uci: u, san: u }),
  );
  eq(twoPart(legal), true, "turns");
  eq(twoPart(legal.slice(3)), false, "an execution alone is a plain move");
  eq(executions(legal).map((m) => m.uci), ["g1f3", "f2f3", "a1e1"], "executions");
  eq(executionAlone(legal, "a1e1")?.uci, "a1e1", "a king taken");
  eq(executionAlone(legal, "g1f3"), null, "a mark follows");
  const marks = marksAfter(legal, "g1f3", STANDARD);
  eq([...marks.keys()], [STANDARD.parse("d5"), STANDARD.parse("a6")], "marks");
  eq(marks.get(STANDARD.parse("d5"))?.uci, "g1f3>d5=d7d5", "the whole turn");
  eq(executions(legal.slice(0, 0)).length, 0, "none");
});

function mountInput(
  fen: string,
  files: number,
  ranks: number,
  uci: string[],
  flipped: boolean,
  key = "grand",
) {
  const geo = new Geometry(files, ranks);
  const box = document.createElement("div");
  box.className = "board-box";
  box.style.width = "500px";
  document.body.replaceChildren(box);
  const board = parseFen(fen, geo).board;
  const legal: MoveNotation[] = uci.map((u) => create(MoveNotationSchema, { uci: u, san: u }));
  const played: string[] = [];
  const input: MoveInput = new MoveInput(box, {
    board: () => board,
    shown: () => board,
    legal: () => legal,
    geometry: () => geo,
    promotions: () => (key === "grand" ? "qrbnca" : promotionOrder(key)),
    pieces: () => pieceSet(key),
    flipped: () => flipped,
    white: () => true,
    play: (m) => played.push(m.uci),
    redraw: () => {
      const marks = input.marks();
      box.querySelector("svg.board")?.remove();
      box.prepend(drawBoard(board, geo, flipped, marks, pieceSet(key), boardStyle(key)));
    },
    announce: () => {},
  });
  box.prepend(drawBoard(board, geo, flipped, {}, pieceSet(key), boardStyle(key)));
  return played;
}

declare global {
  interface Window {
    unitResults: { name: string; error: string | null }[];
    mountInput: typeof mountInput;
  }
}

window.unitResults = [...cases, ...SITE_CASES, ...SETUP_CASES].map(([name, f]) => {
  try {
    f();
    return { name, error: null };
  } catch (e) {
    return { name, error: String(e instanceof Error ? (e.stack ?? e.message) : e) };
  }
});
window.mountInput = mountInput;
