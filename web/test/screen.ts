// Screen Chess's setup from two seat pages: each seat places its army with the page's buttons
// (a random placement, then final), its page draws its own half and nothing of the other's,
// the other page's DOM never holds it; once both are final both pages draw the joined start,
// and White plays a move from it by clicks.

import type { Page } from "playwright-core";

import { boardShot, fail, waitFor } from "./harness.js";
import { type Player, clickMove, sit } from "./seats.js";
import { type Api, as, create } from "./variantkit.js";

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

async function placeAndCommit(p: Player): Promise<void> {
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
  await placeAndCommit(w);
  const white = await placement(api, g.id, g.whiteToken, true);
  // Black drafts its own: its page draws its sixteen and not one of White's, and holds no row
  // of White's placement (a snapshot read after White's final placement: the draft came after).
  await b.page.click('[data-action="place-random"]');
  await waitFor("Black's draft drawn", async () => (await pieces(b.page)).length === 16);
  if (!(await pieces(b.page)).every((p) => p === p.toLowerCase()))
    fail("Black's page draws a white piece before the reveal");
  const html = await b.page.content();
  for (const row of white.split("/").filter((r) => /[A-Z]/.test(r))) {
    if (html.includes(row)) fail(`Black's page holds White's row ${row}`);
  }
  if (!(await pieces(w.page)).every((p) => p === p.toUpperCase()))
    fail("White's page draws a black piece before the reveal");
  await placeAndCommit(b);
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
  await boardShot(b.page, artifacts, "screen");
  return `Screen Chess: each page placed its army unseen by the other, then ${first.uci} by clicks`;
}
