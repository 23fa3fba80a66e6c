// Xiangqi and shogi played from two seat pages by clicks. Shogi: after 1. P-7f P-3d from the
// API, sente's bishop clicked onto gote's (b2h8, which may promote or not: the page asks, and
// sente promotes), gote's silver takes the horse back, and sente drops the bishop it took from
// its hand onto e5; each page shows the promoted horse (馬, in red), both hands with their
// counts, gote's pieces turned toward gote, and the pieces of the server's FEN. Xiangqi: Red's
// cannon to the centre and Black's horse out, on the points of the grid with the river; each
// page shows the characters of the pieces moved and the server's FEN. Each then ends on the
// pages: in shogi gote resigns (clicked and confirmed), in xiangqi Red offers a draw and Black
// accepts; both pages show the result and take no further move. Minishogi: sente's rook takes a
// pawn by clicks, which joins sente's hand on both pages.

import path from "node:path";

import { boardShot, fail, waitFor } from "./harness.js";
import { type Player, clickMove, clickSquare, ready, sit } from "./seats.js";
import { agreeDraw, expectEnded, resign } from "./ending.js";
import { type Api, create, playApi } from "./variantkit.js";
import { expectDrawn, synced } from "./wide.js";

const glyphs = (p: Player, sq: string) =>
  p.page
    .locator(`#board .piece[data-square="${sq}"] text.glyph`)
    .evaluateAll((ts) => ts.map((t) => t.textContent ?? "").join(""));

/** Whether the piece on `sq` is drawn turned (pointing down the page). */
const turned = (p: Player, sq: string) =>
  p.page.locator(`#board .piece[data-square="${sq}"] g[transform^="rotate(180"]`).count();

async function expectHand(p: Player, where: "top" | "bottom", role: string, count: number) {
  const sel = `#pocket-${where} [data-role="${role}"]`;
  try {
    await waitFor(`${p.name}: ${count} ${role} in the ${where} hand`, async () => {
      const n = await p.page.locator(sel).getAttribute("data-count");
      return n === String(count);
    });
  } catch {
    const held = await p.page.locator(sel).getAttribute("data-count");
    fail(`${p.name}: the ${where} hand holds ${held} ${role}`);
  }
}

async function shogi(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "shogi" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await playApi(api, g, ["P-7f", "P-3d"]);
  await synced(api, g.id, [w, b], 2);
  await expectDrawn(w, "shogi", 9, 9);
  if ((await w.page.locator("#board svg.board").getAttribute("data-style")) !== "ruled")
    fail("shogi's board is not ruled");
  // Each page shows its own side at the bottom, pointing up; the other's pieces point down.
  if ((await turned(w, "e9")) !== 1 || (await turned(w, "e1")) !== 0)
    fail("sente's page: gote's king is not turned toward gote, or sente's is");
  if ((await turned(b, "e1")) !== 1 || (await turned(b, "e9")) !== 0)
    fail("gote's page: sente's king is not turned toward sente, or gote's is");
  if ((await glyphs(w, "e1")) !== "王" || (await glyphs(w, "h8")) !== "角")
    fail(`sente's page shows ${await glyphs(w, "e1")} on e1, ${await glyphs(w, "h8")} on h8`);
  // 2. Bx2b: both the promotion and the move without it are legal; the picker asks.
  await clickMove(w, "b2", "h8");
  await waitFor("the promotion choice", () => w.page.locator("#promotion").count());
  const offered = await w.page
    .locator("#promotion button[data-promotion]")
    .evaluateAll((bs) => bs.map((x) => (x as HTMLElement).dataset.promotion || "-").join(""));
  if (offered !== "+-") fail(`the picker offers ${offered}, not promote then not`);
  await w.page.locator('#promotion button[data-promotion="+"]').click();
  let game = await synced(api, g.id, [w, b], 3);
  if (game.moves[2]?.uci !== "b2h8+")
    fail(
      `the server played ${game.moves[2]?.uci} (${game.moves[2]?.san}); ` +
        `the page sent ${w.submits.map((s) => s.move).join(", ")}`,
    );
  for (const p of [w, b]) {
    if ((await glyphs(p, "h8")) !== "馬") fail(`${p.name}: h8 shows ${await glyphs(p, "h8")}`);
    const red = await p.page.locator('#board .piece[data-square="h8"] text.glyph.promoted').count();
    if (red !== 1) fail(`${p.name}: the horse is not drawn as promoted`);
  }
  await expectHand(w, "bottom", "b", 1);
  await expectHand(b, "top", "b", 1);
  // 2... Sx2b: gote takes the horse, which goes to gote's hand as a bishop.
  await clickMove(b, "g9", "h8");
  game = await synced(api, g.id, [w, b], 4);
  await expectHand(b, "bottom", "b", 1);
  await expectHand(w, "top", "b", 1);
  // 3. B*5e: sente's bishop from its hand, clicked then put on e5.
  await ready(w);
  await w.page.locator('#pocket-bottom button[data-role="b"]').click();
  await waitFor("e5 marked", () => w.page.locator('#board [data-target="e5"]').count());
  await clickSquare(w, "e5");
  game = await synced(api, g.id, [w, b], 5);
  if (game.moves[4]?.uci !== "B@e5") fail(`the server played ${game.moves[4]?.uci}`);
  await expectHand(w, "bottom", "b", 0);
  for (const p of [w, b]) {
    if ((await glyphs(p, "e5")) !== "角") fail(`${p.name}: e5 shows ${await glyphs(p, "e5")}`);
  }
  const moves = await b.page.locator("#moves").textContent();
  if (!moves?.includes("B*5e")) fail(`gote's move list lacks the drop: ${moves}`);
  await w.page.screenshot({ path: path.join(artifacts, "shogi.png"), fullPage: true });
  await boardShot(w.page, artifacts, "shogi");
  await resign(b);
  await expectEnded(api, g.id, "1-0 · White wins by resignation", [
    [w, "you won"],
    [b, "you lost"],
  ]);
  return "shogi: a promotion chosen, a capture and a drop, by clicks, to its end by gote's resignation";
}

async function xiangqi(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "xiangqi" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await synced(api, g.id, [w, b], 0);
  await expectDrawn(w, "xiangqi", 9, 10);
  await expectDrawn(b, "xiangqi", 9, 10);
  if ((await w.page.locator("#board circle.sq[data-square]").count()) !== 90)
    fail("xiangqi's pieces do not stand on 90 points");
  if ((await w.page.locator("#board .river").count()) !== 1) fail("no river");
  // 1. C2=5 (h3e3): the cannon to the centre; 1... H8+7 (h10g8).
  await clickMove(w, "h3", "e3");
  let game = await synced(api, g.id, [w, b], 1);
  if (game.moves[0]?.uci !== "h3e3") fail(`the server played ${game.moves[0]?.uci}`);
  await clickMove(b, "h10", "g8");
  game = await synced(api, g.id, [w, b], 2);
  if (game.moves[1]?.uci !== "h10g8") fail(`the server played ${game.moves[1]?.uci}`);
  for (const p of [w, b]) {
    const seen = [await glyphs(p, "e3"), await glyphs(p, "g8"), await glyphs(p, "e1")];
    if (seen.join(" ") !== "炮 馬 帥") fail(`${p.name}: e3, g8 and e1 show ${seen.join(" ")}`);
  }
  await b.page.screenshot({ path: path.join(artifacts, "xiangqi.png"), fullPage: true });
  await boardShot(b.page, artifacts, "xiangqi");
  await agreeDraw(w, b);
  await expectEnded(api, g.id, "½-½ · Draw by agreement", [
    [w, "drawn"],
    [b, "drawn"],
  ]);
  return "xiangqi: two moves on the points by clicks, to its end by a draw offered and accepted";
}

/** Minishogi: a pawn taken by the rook goes to sente's hand, drawn beside the 5x5 board. */
async function minishogi(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "minishogi" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await playApi(api, g, ["a2a3", "e4e3"]);
  await synced(api, g.id, [w, b], 2);
  await expectDrawn(w, "minishogi", 5, 5);
  // 2. R x e3 (e1e3), clicked: the pawn joins sente's hand.
  await clickMove(w, "e1", "e3");
  const game = await synced(api, g.id, [w, b], 3);
  if (game.moves[2]?.uci !== "e1e3") fail(`the server played ${game.moves[2]?.uci}`);
  await expectHand(w, "bottom", "p", 1);
  await expectHand(b, "top", "p", 1);
  if ((await glyphs(w, "e3")) !== "飛") fail(`sente's page shows ${await glyphs(w, "e3")} on e3`);
  await boardShot(w.page, artifacts, "minishogi");
  return "minishogi: a capture by clicks into the hand";
}

export async function easternScenarios(
  api: Api,
  w: Player,
  b: Player,
  artifacts: string,
): Promise<string> {
  return [
    await shogi(api, w, b, artifacts),
    await xiangqi(api, w, b, artifacts),
    await minishogi(api, w, b, artifacts),
  ].join("; ");
}
