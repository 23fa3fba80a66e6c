// Screen Chess's setup from two seat pages: White places its army by hand, piece by piece from
// its tray by clicks (a piece picked up and moved, another put back in the tray, the last by
// keys, taken back by Delete and placed again), with no call to the server until it sends; a draft that breaks a rule is refused with
// the rule said, the corrected one kept, then made final. Black places at random and makes it
// final. Each page draws its own half and nothing of the other's, and the other page's DOM
// never holds it; once both are final both pages draw the joined start, White plays a move
// from it by clicks, and Black offers a draw that White accepts: both pages show the game over.

import type { Page } from "playwright-core";

import { boardShot, fail, text, waitFor } from "./harness.js";
import { type Player, clickMove, clickSquare, sit } from "./seats.js";
import { agreeDraw, expectEnded } from "./ending.js";
import { type Api, as, create } from "./variantkit.js";

/** The rules' example of White's placement (docs/games/screen.md), placed here by hand. */
const WHITE_ROWS = "2P2P2/P2PP2P/1P4P1/RNBQKBNR";

async function pieces(page: Page): Promise<string[]> {
  return page
    .locator("#board .piece")
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-piece") ?? ""));
}

/** The seat's placement as the server keeps it for that seat. */
async function placement(api: Api, id: string, token: string, white: boolean): Promise<string> {
  return waitFor("the seat's placement", async () => {
    const game = (await api.getGame({ gameId: id }, as(token))).game ?? fail("no game");
    const seat = white ? game.setup?.white : game.setup?.black;
    return seat?.placement || false;
  });
}

const submits = (p: Player) => p.calls.filter(([method]) => method === "SubmitSetup").length;

const tray = (p: Player, role: string) => `#pocket-bottom button[data-role="${role}"]`;

async function trayCount(p: Player, role: string): Promise<string> {
  return (await p.page.locator(tray(p, role)).getAttribute("data-count")) ?? "";
}

async function pieceOn(p: Player, square: string): Promise<string> {
  const piece = p.page.locator(`#board .piece[data-square="${square}"]`);
  return (await piece.count()) ? ((await piece.getAttribute("data-piece")) ?? "") : "";
}

async function drawnOn(p: Player, square: string, piece: string): Promise<void> {
  await waitFor(`${p.name}: ${piece || "nothing"} on ${square}`, async () =>
    (await pieceOn(p, square)) === piece,
  );
}

/** Picks `role` from the tray and puts it on `square`, by clicks. */
async function placeByClicks(p: Player, role: string, square: string): Promise<void> {
  await p.page.click(tray(p, role));
  await waitFor(`${p.name}: ${square} offered`, () =>
    p.page.locator(`#board [data-target="${square}"]`).count(),
  );
  await clickSquare(p, square);
  await drawnOn(p, square, role.toUpperCase());
}

/** White's army placed by hand: every piece by clicks but the last pawn, by keys. */
async function placeByHand(api: Api, w: Player, id: string, token: string, artifacts: string) {
  // The king picked up and moved within the half.
  await placeByClicks(w, "k", "e2");
  await clickMove(w, "e2", "e1");
  await drawnOn(w, "e2", "");
  await drawnOn(w, "e1", "K");
  // The queen picked up again and put back in the tray.
  await placeByClicks(w, "q", "d2");
  if ((await trayCount(w, "q")) !== "0") fail("the queen placed is still in the tray");
  await clickSquare(w, "d2");
  await w.page.click("#pocket-bottom button[data-unplace]:not([disabled])");
  await drawnOn(w, "d2", "");
  await waitFor("the queen back in the tray", async () => (await trayCount(w, "q")) === "1");
  for (const [role, square] of [
    ["q", "d1"],
    ["r", "a1"],
    ["n", "b1"],
    ["b", "c1"],
    ["b", "f1"],
    ["n", "g1"],
    ["r", "h1"],
  ] as const) {
    await placeByClicks(w, role, square);
  }
  const note = await text(w.page, "[data-tray-note]");
  if (note !== "8 pieces left to place") fail(`the tray says "${note}"`);
  await boardShot(w.page, artifacts, "screen");
  for (const square of ["b2", "g2", "a3", "d3", "e3", "h3", "c4"]) {
    await placeByClicks(w, "p", square);
  }
  if (await w.page.locator('[data-action="place-final"]').count())
    fail("a placement with a piece left to place is offered as final");
  // The last pawn by keys, from the tray onto c3 (the cursor starts on the king, e1): two
  // pawns on the c-file, which the page says and the server refuses.
  await w.page.focus(tray(w, "p"));
  for (const key of ["Enter", "ArrowUp", "ArrowUp", "ArrowLeft", "ArrowLeft", "Enter"])
    await w.page.keyboard.press(key);
  await drawnOn(w, "c3", "P");
  // Delete puts the piece under the cursor back; Enter on the tray's pawn picks it again, and
  // Enter on the board (the cursor still on c3) places it there.
  await w.page.keyboard.press("Delete");
  await drawnOn(w, "c3", "");
  if ((await trayCount(w, "p")) !== "1") fail("Delete did not put the pawn back in the tray");
  await w.page.focus(tray(w, "p"));
  await w.page.keyboard.press("Enter");
  await w.page.keyboard.press("Enter");
  await drawnOn(w, "c3", "P");
  const full = await text(w.page, "[data-tray-note]");
  if (!full.includes("two pawns on the c-file")) fail(`the full tray says "${full}"`);
  const sent = submits(w);
  if (sent !== 0) fail(`${sent} SubmitSetup sent while placing piece by piece`);
  await w.page.click('[data-action="place-draft"]');
  let said = "";
  await waitFor("the refusal said", async () => {
    said = await text(w.page, "#play-message");
    return said.includes("INVALID_SETUP") && said.includes("c-file");
  }).catch((e: unknown) => fail(`${String(e)} (the page says: "${said}")`));
  // Corrected on the page and sent again: the server keeps it as the seat's draft.
  await clickMove(w, "c3", "f4");
  await drawnOn(w, "f4", "P");
  await waitFor("the placement complete", async () =>
    (await text(w.page, "[data-tray-note]")).startsWith("All placed: send"),
  );
  await w.page.click('[data-action="place-draft"]');
  const draft = await placement(api, id, token, true);
  if (draft !== WHITE_ROWS) fail(`White's draft is ${draft}, want ${WHITE_ROWS}`);
  await w.page.click('[data-action="place-final"]');
  await w.page.click('[data-action="place-final-yes"]');
  await waitFor("White's tray gone once final", () => w.page.locator("#pocket-bottom[hidden]").count());
  if (submits(w) !== 3) fail(`White sent ${submits(w)} SubmitSetup, want 3`);
}

async function placeAtRandom(p: Player): Promise<void> {
  await p.page.click('[data-action="place-random"]');
  await waitFor(`${p.name}: the placement drawn`, async () => (await pieces(p.page)).length === 16);
  await waitFor(`${p.name}: "make final" offered`, () =>
    p.page.locator('[data-action="place-final"]').count(),
  );
  await p.page.click('[data-action="place-final"]');
  await p.page.click('[data-action="place-final-yes"]');
}

export async function screen(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "screen" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await placeByHand(api, w, g.id, g.whiteToken, artifacts);
  const white = await placement(api, g.id, g.whiteToken, true);
  // Black draws its own: its page draws its sixteen and not one of White's, and holds no row
  // of White's placement (a snapshot read after White's final placement).
  await b.page.click('[data-action="place-random"]');
  await waitFor("Black's placement drawn", async () => (await pieces(b.page)).length === 16);
  if (!(await pieces(b.page)).every((p) => p === p.toLowerCase()))
    fail("Black's page draws a white piece before the reveal");
  const html = await b.page.content();
  for (const row of white.split("/").filter((r) => /[A-Z]/.test(r))) {
    if (html.includes(row)) fail(`Black's page holds White's row ${row}`);
  }
  if (!(await pieces(w.page)).every((p) => p === p.toUpperCase()))
    fail("White's page draws a black piece before the reveal");
  await placeAtRandom(b);
  for (const p of [w, b])
    await waitFor(`${p.name}: the joined start`, async () => (await pieces(p.page)).length === 32);
  const start = (await api.getGame({ gameId: g.id })).game ?? fail("no game");
  if (!start.startFen.includes(white)) fail(`the start ${start.startFen} lacks White's ${white}`);
  const first = start.legalMoves.find((m) => m.uci.length === 4) ?? fail("no move");
  await clickMove(w, first.uci.slice(0, 2), first.uci.slice(2, 4));
  await waitFor("the move played", async () => {
    const game = (await api.getGame({ gameId: g.id })).game;
    return game?.ply === 1;
  });
  await agreeDraw(b, w);
  await expectEnded(api, g.id, "½-½ · Draw by agreement", [
    [w, "drawn"],
    [b, "drawn"],
  ]);
  return (
    "Screen Chess: White placed its army by hand (clicks and keys, a refused draft corrected), " +
    `Black at random, unseen by the other; then ${first.uci} by clicks, ` +
    "to its end by a draw offered and accepted"
  );
}
