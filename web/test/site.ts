// The site-only games (issue 30) played from two seat pages by clicks.
// Ice Age: the board's 32 ice cubes drawn, White's pawn clicked onto the ice on g3 (marked as a
// capture, and taken: 31 cubes on both pages), then Black's g7 onto f6's ice. Recycle: White's
// knight clicked onto its own pawn on e2 (a capture: the pawn joins White's hand on both pages),
// then that pawn dropped from the hand on d3. Cylinder: a bishop's capture across the seam
// (f1 to h7 by way of a6), then a scholar's mate by clicks, the bishop from g6 guarding the
// queen's Qxf7#. Knight Relay: a pawn a knight defends leaps as a knight. Cheshire Cat:
// the square a piece leaves is drawn as a hole on both pages. Every board is the server's FEN,
// ice and vanished squares included. The games of chance and Dark Chess (dark.ts) follow; the
// Dice Chess game ends by White's resignation. Every game ended is shown over on both pages,
// neither taking a move.

import type { BrowserContext } from "playwright-core";

import { NEUTRAL } from "../src/chess.js";
import { boardShot, fail, startProxy, waitFor } from "./harness.js";
import { type Player, clickMove, clickSquare, player, ready, sit } from "./seats.js";
import { type Api, create, playApi, serverGame } from "./variantkit.js";
import { dark } from "./dark.js";
import { screen } from "./screen.js";
import { clickLine, expectDrawn, synced } from "./wide.js";
import { expectEnded, resign } from "./ending.js";


const cubes = (p: Player) => p.page.locator(`#board .piece.neutral[data-piece="${NEUTRAL}"]`).count();

async function expectCubes(players: Player[], n: number): Promise<void> {
  for (const p of players) {
    const seen = await cubes(p);
    if (seen !== n) fail(`${p.name} draws ${seen} ice cubes, not ${n}`);
  }
}

/** Clicks `from`, checks `to` is marked as a capture, clicks it. */
async function clickCapture(p: Player, from: string, to: string): Promise<void> {
  await ready(p);
  await clickSquare(p, from);
  const mark = p.page.locator(`#board [data-target="${to}"]`);
  await waitFor(`${p.name}: ${to} marked`, () => mark.count());
  const kind = (await mark.getAttribute("class")) ?? "";
  if (!kind.includes("capture")) fail(`${p.name}: ${to} is marked "${kind}", not as a capture`);
  await clickSquare(p, to);
}

async function handCount(p: Player, where: "top" | "bottom", role: string, n: number) {
  const sel = `#pocket-${where} [data-role="${role}"]`;
  await waitFor(`${p.name}: ${n} ${role} in the ${where} hand`, async () => {
    return (await p.page.locator(sel).getAttribute("data-count")) === String(n);
  }).catch(async () => fail(`${p.name}: the ${where} hand holds ${await p.page.locator(sel).getAttribute("data-count")} ${role}`));
}

async function iceAge(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "iceage" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await synced(api, g.id, [w, b], 0);
  await expectDrawn(w, "iceage", 8, 8);
  await expectCubes([w, b], 32);
  // 1. hxg3: White's first move must take ice.
  await clickCapture(w, "h2", "g3");
  let game = await synced(api, g.id, [w, b], 1);
  if (game.moves[0]?.uci !== "h2g3") fail(`the server played ${game.moves[0]?.uci}`);
  await expectCubes([w, b], 31);
  await clickCapture(b, "g7", "f6");
  game = await synced(api, g.id, [w, b], 2);
  if (game.moves[1]?.uci !== "g7f6") fail(`the server played ${game.moves[1]?.uci}`);
  await expectCubes([w, b], 30);
  await boardShot(w.page, artifacts, "iceage");
  return "Ice Age: ice taken by clicks";
}

async function recycle(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "recycle" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await synced(api, g.id, [w, b], 0);
  await expectDrawn(w, "recycle", 8, 8);
  // 1. Nxe2: the knight takes its own pawn, which joins White's hand.
  await clickCapture(w, "g1", "e2");
  let game = await synced(api, g.id, [w, b], 1);
  if (game.moves[0]?.uci !== "g1e2") fail(`the server played ${game.moves[0]?.uci}`);
  await handCount(w, "bottom", "p", 1);
  await handCount(b, "top", "p", 1);
  await playApi(api, g, ["e5"]);
  await synced(api, g.id, [w, b], 2);
  // 2. P@d3: the pawn from the hand, clicked then put down.
  await ready(w);
  await w.page.locator('#pocket-bottom button[data-role="p"]').click();
  await waitFor("d3 marked", () => w.page.locator('#board [data-target="d3"]').count());
  await clickSquare(w, "d3");
  game = await synced(api, g.id, [w, b], 3);
  if (game.moves[2]?.uci !== "P@d3") fail(`the server played ${game.moves[2]?.uci}`);
  await handCount(w, "bottom", "p", 0);
  await handCount(b, "top", "p", 0);
  await boardShot(w.page, artifacts, "recycle");
  return "Recycle: a self-capture and its drop by clicks";
}

/** A new game of `key` with both pages seated and its board drawn. */
async function seated(api: Api, key: string, w: Player, b: Player): Promise<Awaited<ReturnType<typeof create>>> {
  const g = await create(api, { variantKey: key });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await synced(api, g.id, [w, b], 0);
  await expectDrawn(w, key, 8, 8);
  return g;
}

async function cylinder(api: Api, w: Player, b: Player): Promise<string> {
  const g = await seated(api, "cylinder", w, b);
  await playApi(api, g, ["e4", "e5"]);
  await synced(api, g.id, [w, b], 2);
  // 3. Bxh7: the bishop leaves f1 up the long diagonal to a6 and crosses the seam onto h7.
  await clickCapture(w, "f1", "h7");
  const game = await synced(api, g.id, [w, b], 3);
  if (game.moves[2]?.uci !== "f1h7") fail(`the server played ${game.moves[2]?.uci}`);
  // 3... a6 4. Bg6 a5 5. Qf3 a4 6. Qxf7#.
  await clickLine(api, g.id, w, b, 3, ["a7a6", "h7g6", "a6a5", "d1f3", "a5a4", "f3f7"]);
  await expectEnded(api, g.id, "1-0 · White wins by checkmate", [
    [w, "you won"],
    [b, "you lost"],
  ]);
  return "Cylinder: a capture across the seam by clicks, to its end by 6. Qxf7# played by clicks";
}

async function knightRelay(api: Api, w: Player, b: Player): Promise<string> {
  const g = await seated(api, "knightrelay", w, b);
  // 1. e2-d4: the pawn the g1 knight defends leaps as a knight.
  await clickMove(w, "e2", "d4");
  const game = await synced(api, g.id, [w, b], 1);
  if (game.moves[0]?.uci !== "e2d4") fail(`the server played ${game.moves[0]?.uci}`);
  return "Knight Relay: a relayed leap by clicks";
}

async function cheshireCat(api: Api, w: Player, b: Player): Promise<string> {
  const g = await seated(api, "cheshirecat", w, b);
  if (await w.page.locator("#board [data-hole]").count()) fail("a hole before any move");
  // 1. e4: the square the pawn left vanishes, on both pages.
  await clickMove(w, "e2", "e4");
  await synced(api, g.id, [w, b], 1);
  for (const p of [w, b]) {
    await waitFor(`${p.name}: e2 drawn as a hole`, () => p.page.locator('#board [data-hole="e2"]').count());
  }
  return "Cheshire Cat: a vanished square on both pages";
}

/** Dice Chess: the die the server rolled shows on the strip of the side to move, and a move the
 * die allows, clicked, comes back from the server with the next roll. */
async function dice(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await seated(api, "dice", w, b);
  const start = await serverGame(api, g.id);
  const roll = start.fen.split(" ")[6] ?? "";
  if (!/^[1-6]$/.test(roll)) fail(`the start has no roll: ${start.fen}`);
  if (start.seedSha256.length !== 64) fail(`no seed commitment: "${start.seedSha256}"`);
  for (const p of [w, b]) {
    await waitFor(`${p.name}: the die ${roll} shown`, () =>
      p.page.locator(`.clock .die[data-die="${roll}"]`).count(),
    );
  }
  const first = start.legalMoves[0]?.uci ?? fail("no legal move");
  await clickMove(w, first.slice(0, 2), first.slice(2, 4));
  const game = await synced(api, g.id, [w, b], 1);
  const played = game.moves[0]?.uci ?? "";
  if (!played.startsWith(`${first.slice(0, 4)}~`)) fail(`the server played ${played}, not ${first} with a roll`);
  const next = game.fen.split(" ")[6] ?? "";
  await waitFor(`${b.name}: the next die ${next} shown`, () =>
    b.page.locator(`.clock .die[data-die="${next}"]`).count(),
  );
  await boardShot(b.page, artifacts, "dice");
  await resign(w);
  await expectEnded(api, g.id, "0-1 · Black wins by resignation", [
    [w, "you lost"],
    [b, "you won"],
  ]);
  return `Dice Chess: the die shown, ${played} by a click, to its end by White's resignation`;
}

/** Dice Chess with the players' entropy: both seated pages commit and reveal by themselves,
 * each keeping its secret in its own tab; the die is cast only then, with the key. */
async function diceEntropy(api: Api, w: Player, b: Player): Promise<string> {
  const g = await create(api, { variantKey: "dice", playerEntropy: true });
  if (g.game.fen.split(" ")[6] !== "-") fail(`rolled before the round: ${g.game.fen}`);
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  const game = await waitFor("the round done by both pages", async () => {
    const now = await serverGame(api, g.id);
    return now.entropy?.whiteSecret && now.entropy.blackSecret ? now : false;
  });
  const kept = await w.page.evaluate(
    (id) => sessionStorage.getItem(`chessd-entropy:${id}:w`),
    g.id,
  );
  if (kept !== game.entropy?.whiteSecret) fail(`White's page kept ${kept}, revealed ${game.entropy?.whiteSecret}`);
  const roll = game.fen.split(" ")[6] ?? "";
  if (!/^[1-6]$/.test(roll)) fail(`no roll after the round: ${game.fen}`);
  for (const p of [w, b]) {
    await waitFor(`${p.name}: the die ${roll} shown`, () =>
      p.page.locator(`.clock .die[data-die="${roll}"]`).count(),
    );
  }
  await resign(w);
  await expectEnded(api, g.id, "0-1 · Black wins by resignation", [
    [w, "you lost"],
    [b, "you won"],
  ]);
  return `Dice Chess with the players' entropy: both pages committed and revealed, then the die ${roll}`;
}

/** Behemoth Chess: the Behemoth drawn on d4, then wherever the server's step took it. */
async function behemoth(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await seated(api, "behemoth", w, b);
  const beast = (p: Player) =>
    p.page.locator('#board .piece.neutral[data-piece-role="Behemoth"]').getAttribute("data-square");
  for (const p of [w, b]) {
    await waitFor(`${p.name}: the Behemoth on d4`, async () => (await beast(p)) === "d4");
  }
  await clickMove(w, "g1", "f3");
  const game = await synced(api, g.id, [w, b], 1);
  const played = game.moves[0]?.uci ?? "";
  if (!/^g1f3~(N|NE|E|SE|S|SW|W|NW)[1-4]$/.test(played)) fail(`the server played ${played}`);
  await boardShot(w.page, artifacts, "behemoth");
  return `Behemoth Chess: the Behemoth drawn and moved (${played})`;
}

/** Ambiguous Chess: White's first turn marks e4 alone (played at once, the only move there);
 * Black marks f6, outlined on both pages; White moves Black's knight there by clicks, sees it
 * drawn there, and marks f3, all one turn. */
async function ambiguous(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await seated(api, "ambiguous", w, b);
  await ready(w);
  await waitFor("e4 offered as White's mark", () => w.page.locator('#board [data-target="e4"]').count());
  await clickSquare(w, "e4");
  let game = await synced(api, g.id, [w, b], 1);
  if (game.moves[0]?.uci !== ">e4=e2e4") fail(`the server played ${game.moves[0]?.uci}`);
  await ready(b);
  await waitFor("f6 offered as Black's mark", () => b.page.locator('#board [data-target="f6"]').count());
  await clickSquare(b, "f6");
  game = await synced(api, g.id, [w, b], 2);
  if (game.moves[1]?.uci !== ">f6") fail(`the server played ${game.moves[1]?.uci}`);
  for (const p of [w, b]) {
    await waitFor(`${p.name}: f6 outlined as pending`, () => p.page.locator('#board [data-marked="f6"]').count());
  }
  await clickMove(w, "g8", "f6");
  await waitFor("the knight drawn on f6 while White marks", () =>
    w.page.locator('#board .piece[data-square="f6"]').count(),
  );
  await waitFor("f3 offered as White's mark", () => w.page.locator('#board [data-target="f3"]').count());
  await clickSquare(w, "f3");
  game = await synced(api, g.id, [w, b], 3);
  if (game.moves[2]?.uci !== "g8f6>f3") fail(`the server played ${game.moves[2]?.uci}`);
  await boardShot(b.page, artifacts, "ambiguous");
  return `Ambiguous Chess: a mark, then an execution and a mark by clicks (${game.moves[2]?.uci})`;
}

export async function siteScenarios(
  context: BrowserContext,
  api: Api,
  addr: string,
  artifacts: string,
): Promise<string> {
  const proxies = [await startProxy(addr), await startProxy(addr)] as const;
  const pages = [await context.newPage(), await context.newPage()] as const;
  try {
    const w = player(pages[0], proxies[0], "White's page");
    const b = player(pages[1], proxies[1], "Black's page");
    return [
      await iceAge(api, w, b, artifacts),
      await recycle(api, w, b, artifacts),
      await cylinder(api, w, b),
      await knightRelay(api, w, b),
      await cheshireCat(api, w, b),
      await dice(api, w, b, artifacts),
      await diceEntropy(api, w, b),
      await behemoth(api, w, b, artifacts),
      await dark(api, w, b, artifacts),
      await ambiguous(api, w, b, artifacts),
      await screen(api, w, b, artifacts),
    ].join("; ");
  } finally {
    for (const p of pages) await p.close();
    for (const p of proxies) await p.close();
  }
}
