// The variants watched: a Three-check game (the counters after each check, the third check's
// result, the counters again at an earlier ply of the game opened afresh), King of the Hill's
// end, an Atomic capture whose explosion is on the board live and when the game is stepped
// through from a snapshot, Antichess's and Horde's ends in words, and the position after a
// first move that captures or checks, which the page sketches. Every board, pocket and counter
// is checked against the server's FEN and Game fields.

import path from "node:path";
import type { Page } from "playwright-core";

import { Termination, Variant } from "../src/gen/chessd/v1/chessd_pb.js";
import { expectBoard, expectMoves, fail, text, waitFor } from "./harness.js";
import {
  type Api,
  create,
  expectChecks,
  expectPockets,
  playApi,
  ply,
  serverGame,
  stepThrough,
} from "./variantkit.js";

/**
 * The position after a game's first move is in no answer of the API, so a page that opens the
 * game later sketches it from the move (see web/src/chess.ts): from starts where that move
 * takes a piece (Crazyhouse: into the taker's pocket) or gives a check (Three-check: counted),
 * the sketch must still be the server's position, pockets and counters included.
 */
async function firstMoves(page: Page, api: Api, base: string): Promise<void> {
  for (const [variant, startFen, sans] of [
    [
      Variant.CRAZYHOUSE,
      "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 1",
      ["exd5", "Qxd5", "Nc3"],
    ],
    [
      Variant.THREE_CHECK,
      "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+3 0 1",
      ["Bb5+", "c6", "Bxc6+"],
    ],
  ] as const) {
    const g = await create(api, { variant, startFen });
    const fens = [g.game.fen, ...(await playApi(api, g, [...sans]))];
    const what = `the game from ${startFen}`;
    await page.goto(`${base}/#/`);
    await page.goto(`${base}/#/game/${g.id}`);
    await expectMoves(page, [...sans]);
    await stepThrough(page, fens, what);
    await page.locator('#moves button[data-ply="1"]').click();
    await waitFor(`${what} at ply 1`, async () => (await ply(page)) === "1");
    if ((await page.locator("#board").getAttribute("data-source")) !== "sketch")
      fail(`${what}: ply 1 is not marked as the page's sketch`);
    const after = await api.analyzePosition({ variant, fen: fens[1] ?? "" });
    if (variant === Variant.CRAZYHOUSE)
      await expectPockets(page, after.pockets ?? fail("no pockets"), `${what} at ply 1`);
    else await expectChecks(page, after.checksGiven?.white ?? -1, after.checksGiven?.black ?? -1);
  }
}

export async function watched(page: Page, api: Api, base: string, artifacts: string): Promise<string> {
  // --- Three-check: the counters after each check, then the third check ends the game.
  const tc = await create(api, { variant: Variant.THREE_CHECK });
  await page.goto(`${base}/#/game/${tc.id}`);
  await waitFor("the Three-check game", async () => (await text(page, "#connection")) === "Live");
  if (!(await text(page, "#game-title")).endsWith("· Three-check"))
    fail(`the title is ${await text(page, "#game-title")}`);
  await expectChecks(page, 0, 0);
  const tcMoves = "e4 e5 Bc4 Nc6 Bxf7+ Kxf7 Qh5+ g6 Qxg6#".split(" ");
  const tcFens = [tc.game.fen];
  const checksAfter: Record<number, [number, number]> = { 5: [1, 0], 7: [2, 0], 9: [3, 0] };
  for (const [i, san] of tcMoves.entries()) {
    tcFens.push(...(await playApi(api, tc, [san])));
    const counts = checksAfter[i + 1];
    if (counts) {
      await expectMoves(page, tcMoves.slice(0, i + 1));
      await expectChecks(page, ...counts);
    }
  }
  const tcGame = await serverGame(api, tc.id);
  if (tcGame.outcome?.termination !== Termination.THIRD_CHECK || tcGame.checksGiven?.white !== 3)
    fail(`the server ended the Three-check game with ${JSON.stringify(tcGame.outcome)}`);
  await waitFor(
    "the third check's result",
    async () => (await text(page, "#result")) === "1-0 · White wins by giving the third check",
  );
  await page.screenshot({ path: path.join(artifacts, "three-check.png"), fullPage: true });
  // Opened afresh, from a snapshot: the counters at ply 6 are those of its FEN.
  await page.goto(`${base}/#/`);
  await page.goto(`${base}/#/game/${tc.id}`);
  await expectMoves(page, tcMoves);
  await stepThrough(page, tcFens, "the Three-check game");
  await page.locator('#moves button[data-ply="6"]').click();
  await waitFor("ply 6", async () => (await ply(page)) === "6");
  await expectChecks(page, 1, 0);

  // --- King of the Hill: the king walks to d4.
  const koth = await create(api, { variant: Variant.KING_OF_THE_HILL });
  await page.goto(`${base}/#/game/${koth.id}`);
  await waitFor(
    "the King of the Hill game",
    async () => (await text(page, "#connection")) === "Live",
  );
  await playApi(api, koth, "e3 e6 Ke2 Ke7 Kd3 Kd6 Kd4".split(" "));
  const kothGame = await serverGame(api, koth.id);
  if (kothGame.outcome?.termination !== Termination.KING_OF_THE_HILL)
    fail(`the server ended King of the Hill with ${JSON.stringify(kothGame.outcome)}`);
  await waitFor(
    "the hill's result",
    async () =>
      (await text(page, "#result")) === "1-0 · White wins by bringing the king to the centre",
  );
  await expectBoard(page, 7, kothGame.fen, "the King of the Hill page");

  // --- Atomic: 2. exd5 explodes both pawns; the board is the server's, live and afresh.
  const atomic = await create(api, { variant: Variant.ATOMIC });
  await page.goto(`${base}/#/game/${atomic.id}`);
  await waitFor("the Atomic game", async () => (await text(page, "#connection")) === "Live");
  const atomicFens = [atomic.game.fen, ...(await playApi(api, atomic, ["e4", "d5", "exd5"]))];
  await expectBoard(page, 3, atomicFens[3] ?? "", "the Atomic page");
  if (await page.locator('#board .piece[data-square="d5"]').count())
    fail("the pawn that captured on d5 is still drawn: the explosion is missing");
  // 2... Qxd2 takes the pawn beside White's king, which goes up with it.
  atomicFens.push(...(await playApi(api, atomic, ["Qxd2"])));
  await expectBoard(page, 4, atomicFens[4] ?? "", "the Atomic page");
  const atomicGame = await serverGame(api, atomic.id);
  if (atomicGame.outcome?.termination !== Termination.KING_EXPLODED)
    fail(`the server ended the Atomic game with ${JSON.stringify(atomicGame.outcome)}`);
  await waitFor(
    "the explosion's result",
    async () => (await text(page, "#result")) === "0-1 · Black wins by blowing up the king",
  );
  await page.goto(`${base}/#/`);
  await page.goto(`${base}/#/game/${atomic.id}`);
  await expectMoves(
    page,
    atomicGame.moves.map((m) => m.san),
  );
  await stepThrough(page, atomicFens, "the Atomic game");
  await page.screenshot({ path: path.join(artifacts, "atomic.png"), fullPage: true });

  // --- The other variants' ends, each from a position one capture away from it.
  for (const [variant, startFen, uci, termination, line] of [
    [
      Variant.ANTICHESS,
      "8/8/8/8/8/8/1p6/2R5 b - - 0 1",
      "b2c1q",
      Termination.ALL_PIECES_LOST,
      "1-0 · White wins by losing every piece",
    ],
    [
      Variant.HORDE,
      "4k3/8/8/8/8/8/1q6/P7 b - - 0 1",
      "b2a1",
      Termination.HORDE_DESTROYED,
      "0-1 · Black wins by capturing the whole horde",
    ],
  ] as const) {
    const g = await create(api, { variant, startFen });
    await page.goto(`${base}/#/game/${g.id}`);
    await waitFor(`the ${line} game`, async () => (await text(page, "#connection")) === "Live");
    await playApi(api, g, [uci]);
    const end = await serverGame(api, g.id);
    if (end.outcome?.termination !== termination)
      fail(`the server ended the game from ${startFen} with ${JSON.stringify(end.outcome)}`);
    await waitFor(`the result "${line}"`, async () => (await text(page, "#result")) === line);
    await expectBoard(page, 1, end.fen, `the page of ${startFen}`);
  }
  await firstMoves(page, api, base);
  return (
    `Three-check ${tcMoves.length} plies, King of the Hill, Atomic to the explosion, ` +
    "Antichess's and Horde's ends, first moves that capture or check sketched"
  );
}
