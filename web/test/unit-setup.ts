// Unit tests of a secret setup placed by hand (Screen and Crazy Screen Chess, issue 32): the tray's
// counts, the placements and moves on the own half, the four FEN rows built from the page's
// placement and read back, picking a piece up and moving it, the notes of what is left or what
// Screen Chess refuses, the page's placement against the server's, and the tray drawn in the
// seat's pocket strip. Run with unit.ts' cases.

import { CHESS_SET } from "../src/pieces.js";
import { STANDARD } from "../src/geometry.js";
import { Color } from "../src/gen/chessd/v1/chessd_pb.js";
import {
  ARMY_ROLES,
  applyPlacement,
  boardOfRows,
  emptyBoard,
  halfRows,
  leftToPlace,
  lift,
  place,
  placedText,
  placements,
  screenProblems,
  shift,
  trayNote,
  trayOf,
} from "../src/placement.js";
import { PocketStrips } from "../src/pocket.js";
import { LocalPlacement, randomHalf } from "../src/setup.js";
import { eq } from "./check.js";

const sq = (name: string) => STANDARD.parse(name);
const W = Color.WHITE;
const B = Color.BLACK;
/** The rules' own examples (docs/games/screen.md). */
const WHITE_ROWS = "2P2P2/P2PP2P/1P4P1/RNBQKBNR";
const BLACK_ROWS = "rn1qk1nr/1b1pp1b1/p1p2p1p/1p4p1";

export const SETUP_CASES: [string, () => void][] = [];
const test = (name: string, f: () => void) => SETUP_CASES.push([name, f]);

/** `board` after each of `ucis`, failing on one refused. */
function after(board: string[], color: Color, ...ucis: string[]): string[] {
  return ucis.reduce((b, uci) => {
    const next = applyPlacement(b, color, uci);
    if (!next) throw new Error(`${uci} refused on ${halfRows(b, color)}`);
    return next;
  }, board);
}

test("setup: the tray holds the sixteen, and counts down as pieces are placed", () => {
  const empty = emptyBoard();
  eq(trayOf(empty, W), { k: 1, q: 1, r: 2, b: 2, n: 2, p: 8 }, "all in the tray");
  eq(leftToPlace(empty, B), 16, "sixteen to place");
  const b = after(empty, W, "K@e1", "N@b1", "P@a2", "P@h4");
  eq(trayOf(b, W), { k: 0, q: 1, r: 2, b: 2, n: 1, p: 6 }, "king, a knight, two pawns out");
  eq(leftToPlace(b, W), 12, "twelve left");
  // The other side's pieces are not this seat's: its tray is untouched.
  eq(leftToPlace(b, B), 16, "Black's tray");
  eq(ARMY_ROLES, "kqrbnp", "the tray's order");
});

test("setup: a piece goes only onto an empty square of the own half, while the tray has one", () => {
  const b = after(emptyBoard(), W, "K@e1");
  eq(place(b, W, "k", sq("d1")), null, "no second king");
  eq(place(b, W, "q", sq("e1")), null, "not onto a piece");
  eq(place(b, W, "q", sq("d5")), null, "not on Black's half");
  eq(place(emptyBoard(), B, "q", sq("d4")), null, "not on White's half, for Black");
  eq(place(emptyBoard(), B, "q", sq("d5"))?.[sq("d5")], "q", "Black's queen, in its case");
  eq(place(b, W, "p", sq("a1"))?.[sq("a1")], "P", "a pawn on the first rank is the server's to judge");
  eq(applyPlacement(b, W, "N@c6"), null, "a drop off the half");
  eq(applyPlacement(b, W, "e1e5"), null, "a move off the half");
  eq(applyPlacement(b, W, "e4e3"), null, "a move of no piece");
});

test("setup: the placements offered, drops by role then moves of the pieces placed", () => {
  const empty = emptyBoard();
  const ucis = placements(empty, W).map((m) => m.uci);
  eq(ucis.length, 6 * 32, "six roles onto 32 squares");
  eq([ucis[0], ucis[31], ucis[32]], ["K@a1", "K@h4", "Q@a1"], "the king's first");
  const b = after(empty, B, "K@e8");
  const black = placements(b, B).map((m) => m.uci);
  eq(black.length, 5 * 31 + 31, "the king placed: five roles and its moves onto 31 squares");
  eq(black.includes("K@d8"), false, "no second king offered");
  eq(black.includes("e8d5"), true, "the king may move within the half");
  eq(black.includes("e8e4"), false, "not beyond it");
  eq(black.some((u) => u.endsWith("e8")), false, "nothing onto the king");
});

test("setup: picking a piece up and moving it, or putting it back in the tray", () => {
  const b = after(emptyBoard(), W, "Q@d1", "P@d2");
  const moved = shift(b, W, sq("d1"), sq("c3"));
  eq([moved?.[sq("d1")], moved?.[sq("c3")]], ["", "Q"], "the queen moved");
  eq(shift(b, W, sq("d1"), sq("d2")), null, "not onto its own pawn");
  eq(shift(b, W, sq("e1"), sq("e2")), null, "no piece to move");
  eq(after(b, W, "d2d4")[sq("d4")], "P", "as a move of the placements");
  const lifted = lift(b, W, sq("d2")) ?? [];
  eq([lifted[sq("d2")], trayOf(lifted, W).p], ["", 8], "the pawn back in the tray");
  eq(lift(b, W, sq("e2")), null, "nothing to lift");
  eq(lift(after(emptyBoard(), B, "Q@d8"), W, sq("d8")), null, "not the other side's");
});

test("setup: the four FEN rows built from the page's placement, top to bottom, and read back", () => {
  const white = after(
    emptyBoard(),
    W,
    ...["R@a1", "N@b1", "B@c1", "Q@d1", "K@e1", "B@f1", "N@g1", "R@h1"],
    ...["P@b2", "P@g2", "P@a3", "P@d3", "P@e3", "P@h3", "P@c4", "P@f4"],
  );
  eq(halfRows(white, W), WHITE_ROWS, "White's ranks 4 to 1");
  eq(halfRows(emptyBoard(), B), "8/8/8/8", "nothing placed");
  const black = boardOfRows(BLACK_ROWS, B) ?? [];
  eq(halfRows(black, B), BLACK_ROWS, "Black's ranks 8 to 5, read and written back");
  eq([black[sq("e8")], black[sq("b7")], leftToPlace(black, B)], ["k", "b", 0], "read");
  eq(boardOfRows(WHITE_ROWS, B), null, "White's rows are no placement of Black's");
  eq(boardOfRows("8/8/8", W), null, "three rows");
  eq(boardOfRows("9/8/8/8", W), null, "a malformed row");
  for (const color of [W, B]) {
    const rows = randomHalf(color);
    eq(halfRows(boardOfRows(rows, color) ?? [], color), rows, "a random draw read back");
  }
});

test("setup: the note says what is left, and what Screen Chess refuses (not Crazy Screen)", () => {
  const empty = emptyBoard();
  eq(trayNote(empty, W, true), "16 pieces left to place", "all");
  eq(trayNote(after(empty, W, "K@e1"), W, true), "15 pieces left to place", "one placed");
  eq(trayNote(after(empty, W, "K@e1"), W, false), "15 pieces left to place", "as in Crazy Screen");
  const shared = boardOfRows("8/PP6/1PPPPP1P/RNBQKBNR", W) ?? [];
  eq(screenProblems(shared, W, true), ["two pawns on the b-file"], "a file shared, g empty");
  eq(screenProblems(shared, W, false), [], "Crazy Screen: no limit");
  const low = boardOfRows("8/8/PPPPPPP1/RNBQKBNP", W) ?? [];
  eq(screenProblems(low, W, true), ["a pawn on your first rank"], "h1 pawn");
  const same = boardOfRows("8/8/PPPPPPPP/RNBQKNBR", W) ?? [];
  eq(screenProblems(same, W, true), ["both bishops on squares of one colour"], "c1 and g1");
  eq(trayNote(same, W, false), "All placed: send it as a draft or make it final", "Crazy Screen");
  eq(
    trayNote(same, W, true),
    "All placed, but Screen Chess refuses both bishops on squares of one colour",
    "Screen",
  );
  eq(screenProblems(boardOfRows(BLACK_ROWS, B) ?? [], B, true), [], "the rules' example");
  const placed = after(empty, B, "N@c6");
  eq(placedText(placed, B, "N@c6", true), "black knight on c6: 15 pieces left to place", "said");
  const moved = after(placed, B, "c6d5");
  eq(placedText(moved, B, "c6d5", true), "black knight from c6 to d5: 15 pieces left to place", "moved");
});

test("setup: the page's placement takes the server's until the player changes it, and is sent whole", () => {
  let changes = 0;
  const p = new LocalPlacement(W, () => changes++);
  p.sync("");
  eq([p.started, p.rows()], [false, null], "nothing yet");
  p.sync(WHITE_ROWS);
  eq(p.rows(), WHITE_ROWS, "the server's draft taken (a reload)");
  eq(p.lift(sq("e1")), true, "the king lifted");
  eq([p.rows(), changes], [null, 1], "fifteen placed: nothing to send");
  p.sync("8/8/PPPPPPPP/RNBQKBNR");
  eq(p.board[sq("e1")], "", "another draft does not replace the hand's work");
  eq(p.play("K@e2"), true, "the king placed again");
  eq(p.play("K@e3"), false, "no second king");
  eq(p.rows(), "2P2P2/P2PP2P/1P2K1P1/RNBQ1BNR", "sixteen: the rows to send");
  p.clear();
  eq([p.started, leftToPlace(p.board, W)], [false, 16], "all back in the tray");
  eq(p.fill("2P2P2/P2PP2P/1P4P1"), false, "three rows refused");
  eq(p.fill(WHITE_ROWS), true, "a random draw's rows");
  // Untouched since the last server placement taken: a newer one (another tab's) is taken.
  const q = new LocalPlacement(B, () => {});
  q.sync(BLACK_ROWS);
  q.sync("rnbqkbnr/pppppppp/8/8");
  eq(q.rows(), "rnbqkbnr/pppppppp/8/8", "a newer draft taken");
});

test("setup: the tray drawn in the seat's strip, the opponent's hidden, 'Back to tray' while lifting", () => {
  const top = document.createElement("div");
  const bottom = document.createElement("div");
  const strips = new PocketStrips(top, bottom);
  const board = after(emptyBoard(), B, "K@e8", "P@a7");
  const tray = trayOf(board, B);
  const view = (lifting: boolean) => ({
    pockets: { white: tray, black: tray },
    roles: ARMY_ROLES,
    set: CHESS_SET,
    geo: STANDARD,
    bottomWhite: false,
    own: false,
    legal: placements(board, B),
    picked: null,
    tray: { note: trayNote(board, B, true), lifting },
  });
  strips.update(view(false));
  eq([top.hidden, bottom.hidden], [true, false], "only Black's own strip, below");
  const button = (r: string) => bottom.querySelector<HTMLButtonElement>(`button[data-role="${r}"]`);
  const roles = Array.from(bottom.querySelectorAll("[data-role]"), (b) => b.getAttribute("data-role"));
  eq(roles.join(""), "kqrbnp", "in order");
  eq([button("k")?.dataset.count, button("p")?.dataset.count], ["0", "7"], "counts");
  eq([button("k")?.disabled, button("p")?.disabled], [true, false], "none left: disabled");
  eq(button("p")?.getAttribute("aria-label"), "Place a pawn (7 left in your tray)", "named");
  eq(bottom.getAttribute("aria-label"), "Your pieces to place", "the strip named");
  eq(bottom.querySelector("[data-tray-note]")?.textContent, "14 pieces left to place", "the note");
  eq(bottom.querySelector<HTMLButtonElement>("[data-unplace]")?.disabled, true, "nothing lifted");
  strips.update(view(true));
  eq(bottom.querySelector<HTMLButtonElement>("[data-unplace]")?.disabled, false, "a piece lifted");
});
