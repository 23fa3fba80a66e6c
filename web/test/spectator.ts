// The spectator's scenarios: a timed game watched from the list (clocks, a draw offer and its
// refusal, the stream cut and resumed from its last seq), a finished game stepped through from
// a snapshot (every position checked against the server's FEN), the flipped board, the phone
// width (a long game opened there stays at the board, its move list scrolled in its own box),
// and a Racing Kings race.

import path from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import type { Page } from "playwright-core";

import {
  type CreateGameResponse,
  GameService,
  GameStatus,
  Variant,
  WatchGameRequestSchema,
} from "../src/gen/chessd/v1/chessd_pb.js";
import {
  type Proxy,
  boardInSight,
  boardShot,
  expectMoves,
  fail,
  fenPieces,
  shownPieces,
  text,
  waitFor,
} from "./harness.js";

export async function spectatorScenarios(
  page: Page,
  api: Client<typeof GameService>,
  proxy: Proxy,
  artifacts: string,
): Promise<string> {
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  // Every WatchGame the page opens: (game id, after_seq), decoded from the gRPC-Web frame.
  const watches: [string, bigint][] = [];
  page.on("request", (r) => {
    const body = r.postDataBuffer();
    if (r.url().endsWith("/chessd.v1.GameService/WatchGame") && body && body.length >= 5) {
      const w = fromBinary(WatchGameRequestSchema, body.subarray(5));
      watches.push([w.gameId, w.afterSeq]);
    }
  });

  // --- A timed chess game, watched from the list.
  const chess: CreateGameResponse = await api.createGame({
    variant: Variant.CHESS,
    whitePlayer: "ann",
    blackPlayer: "bob",
    timeControl: { initial: { seconds: 300n }, increment: { seconds: 2n } },
  });
  const id = chess.game?.gameId ?? fail("no game id");
  await page.goto(`${proxy.url}/`);
  const row = page.locator(`#live-games li[data-game-id="${id}"] a`);
  await waitFor("the game in the live list", () => row.isVisible());
  await page.selectOption("#variant-filter", String(Variant.RACING_KINGS));
  await waitFor("the chess game filtered out", async () => !(await row.isVisible()));
  await page.selectOption("#variant-filter", String(Variant.CHESS));
  await waitFor("the chess game back in", () => row.isVisible());
  await row.click();
  await waitFor("the game view", async () => (await text(page, "#connection")) === "Live");

  const script: [side: "w" | "b", san: string][] = [
    ["w", "e4"],
    ["b", "e5"],
    ["w", "Bc4"],
    ["b", "Nc6"],
    ["w", "Qh5"],
    ["b", "Nf6"],
    ["w", "Qxf7#"],
  ];
  const played: string[] = [];
  const play = async (i: number) => {
    const [side, san] = script[i] ?? fail("script ended");
    const r = await api.submitMove(
      { gameId: id, move: san },
      as(side === "w" ? chess.whiteToken : chess.blackToken),
    );
    played.push(r.move?.san ?? fail("no move"));
  };

  await play(0);
  await expectMoves(page, played);
  // Clocks: both shown; Black's runs after 1. e4 and visibly ticks down.
  const white0 = await text(page, '[data-clock="white"]');
  if (!/^\d+:\d\d$/.test(white0)) fail(`white clock shows ${white0}`);
  const black0 = await text(page, '[data-clock="black"]');
  await waitFor("Black's clock to tick", async () => {
    const now = await text(page, '[data-clock="black"]');
    return /^\d+:\d\d$/.test(now) && now !== black0;
  });
  if ((await text(page, '[data-clock="white"]')) !== white0)
    fail("White's clock ran on Black's turn");
  if (!(await page.locator('.clock.running [data-clock="black"]').isVisible())) {
    fail("Black's clock is not marked running");
  }

  // A draw offer and its refusal appear.
  await play(1);
  await expectMoves(page, played);
  await api.offerDraw({ gameId: id }, as(chess.whiteToken));
  await waitFor(
    "the draw offer",
    async () => (await text(page, "#draw-offer")) === "White offers a draw",
  );
  await api.respondToDraw({ gameId: id, accept: false }, as(chess.blackToken));
  await waitFor(
    "the refusal",
    async () => (await text(page, "#draw-offer")) === "Black declined the draw",
  );

  await play(2);
  await expectMoves(page, played);

  // Cut the page's stream, play two moves while it is away, then let it back in.
  const before = proxy.connections();
  const seenSeq = (await api.getGame({ gameId: id })).game?.lastSeq ?? fail("no game");
  const watchesBefore = watches.length;
  proxy.cut();
  await waitFor("the page to notice the cut", async () =>
    (await text(page, "#connection")).startsWith("Reconnecting"),
  );
  await play(3);
  await play(4);
  proxy.restore();
  await expectMoves(page, played);
  if (proxy.connections() <= before) fail("the page did not open a new connection");
  await waitFor("live again", async () => (await text(page, "#connection")) === "Live");
  // It resumed from the last event it had seen, not from a fresh snapshot.
  const resumed = watches.slice(watchesBefore);
  if (!resumed.length || resumed.some(([g, seq]) => g !== id || seq !== seenSeq)) {
    fail(
      `reconnects asked for ${JSON.stringify(resumed.map(([g, s]) => [g, String(s)]))}, expected after_seq ${seenSeq}`,
    );
  }
  if (watches[0]?.[1] !== 0n) fail("the first watch did not start from a snapshot");

  await play(5);
  await expectMoves(page, played);
  await play(6);
  await expectMoves(page, played);
  await waitFor(
    "the result",
    async () => (await text(page, "#result")) === "1-0 · White wins by checkmate",
  );
  await waitFor("game over", async () => (await text(page, "#connection")) === "Game over");
  if (played.join(" ") !== "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#") fail(`played ${played.join(" ")}`);
  await page.screenshot({ path: path.join(artifacts, "chess.png"), fullPage: true });
  await boardShot(page, artifacts, "chess");

  // Step through the finished game with the keyboard.
  const ply = () => page.locator("#board").getAttribute("data-ply");
  await page.locator('#moves button[data-ply="7"]').focus();
  await page.keyboard.press("Home");
  await waitFor("the start position", async () => (await ply()) === "0");
  if ((await page.locator("#board .piece").count()) !== 32) fail("start position is not 32 pieces");
  await page.keyboard.press("ArrowRight");
  await waitFor("ply 1", async () => (await ply()) === "1");
  if (!(await page.locator('#board [data-square="e4"][data-piece="P"]').count()))
    fail("no pawn on e4 at ply 1");
  if ((await page.locator("#board .sq.last").count()) !== 2) fail("last move not highlighted");
  const focused = await page.evaluate(() => document.activeElement?.getAttribute("data-ply"));
  if (focused !== "1") fail(`focus is on ply ${focused}, not 1`);
  await page.keyboard.press("End");
  await waitFor("the final position", async () => (await ply()) === "7");
  if (!(await page.locator('#board [data-square="f7"][data-piece="Q"]').count()))
    fail("no queen on f7");
  if ((await page.locator("#board .check").count()) !== 1) fail("the mated king is not marked");

  // Flip: White's king moves from the bottom row to the top row.
  const kingY = async () =>
    (await page.locator('#board .piece[data-square="e1"]').getAttribute("transform")) ?? "";
  if (!(await kingY()).endsWith(" 700)")) fail(`king at ${await kingY()} before flipping`);
  await page.click("#flip");
  await waitFor("the flipped board", async () => (await kingY()).endsWith(" 0)"));
  await page.click("#flip");

  // Phone width: the board still fits.
  await page.setViewportSize({ width: 375, height: 740 });
  const box = await page.locator("#board svg").boundingBox();
  if (!box || box.width > 375) fail(`board is ${box?.width}px wide at phone width`);
  await page.screenshot({ path: path.join(artifacts, "chess-phone.png") });

  // --- A long game opened at phone width: the window stays at its top with the board and both
  // clocks in sight, while the move list (below the board, longer than its box) shows its
  // latest move by scrolling its own box; and so again when a move comes.
  const long = await api.createGame({
    variant: Variant.CHESS,
    whitePlayer: "lea",
    blackPlayer: "max",
  });
  const longId = long.game?.gameId ?? fail("no game id");
  let longGame = long.game ?? fail("no game");
  const longMoves: string[] = [];
  /** A legal move, picked the same way each run: spread over the list, so no piece shuffles. */
  const playOn = async () => {
    const legal = longGame.legalMoves;
    const pick = legal[(longGame.ply * 7 + 3) % legal.length] ?? fail("no legal move");
    const r = await api.submitMove(
      { gameId: longId, move: pick.uci },
      as(longGame.ply % 2 ? long.blackToken : long.whiteToken),
    );
    longMoves.push(r.move?.san ?? fail("no move"));
    longGame = r.game ?? fail("no game");
    if (longGame.status !== GameStatus.ONGOING) fail(`the long game ended at ply ${longGame.ply}`);
  };
  while (longMoves.length < 60) await playOn();
  await page.goto(`${proxy.url}/#/game/${longId}`);
  await expectMoves(page, longMoves);
  /** The move list's box: scrolled to its end, and too short for the list. */
  const listAtEnd = () =>
    page.locator("#moves").evaluate((el) => ({
      atEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 1,
      overflows: el.scrollHeight > el.clientHeight,
    }));
  for (const when of ["opened", "after a move"]) {
    if (when !== "opened") {
      await playOn();
      await expectMoves(page, longMoves);
    }
    await boardInSight(page, `the long game ${when} at phone width`);
    const list = await listAtEnd();
    if (!list.overflows) fail("the long game's move list fits its box: the test proves nothing");
    if (!list.atEnd) fail(`the long game ${when}: the move list is not scrolled to its end`);
  }
  await page.screenshot({ path: path.join(artifacts, "long-phone.png") });
  await page.setViewportSize({ width: 1000, height: 800 });

  // --- A finished game opened afresh: the page rebuilds every position from the snapshot's
  // moves. Stepping through it must match the server's FEN at each ply, through en passant,
  // promotion with capture and castling on both sides.
  const special = await api.createGame({
    variant: Variant.CHESS,
    whitePlayer: "eve",
    blackPlayer: "dan",
  });
  const specialId = special.game?.gameId ?? fail("no game id");
  const fens = [special.game?.fen ?? fail("no fen")];
  const specialMoves = "e4 a6 e5 d5 exd6 e6 dxc7 Qd7 cxb8=Q Rxb8 Nf3 Bd6 Be2 Nf6 O-O O-O".split(
    " ",
  );
  for (const [i, san] of specialMoves.entries()) {
    const r = await api.submitMove(
      { gameId: specialId, move: san },
      as(i % 2 === 0 ? special.whiteToken : special.blackToken),
    );
    fens.push(r.game?.fen ?? fail("no fen"));
  }
  await api.resign({ gameId: specialId }, as(special.whiteToken));
  await page.goto(`${proxy.url}/#/game/${specialId}`);
  await waitFor(
    "the resignation",
    async () => (await text(page, "#result")) === "0-1 · Black wins by resignation",
  );
  await expectMoves(page, specialMoves);
  await page.locator('#moves button[data-ply="1"]').focus();
  await page.keyboard.press("Home");
  for (let p = 0; p <= specialMoves.length; p++) {
    if (p > 0) await page.keyboard.press("ArrowRight");
    await waitFor(`ply ${p}`, async () => (await ply()) === String(p));
    const expected = fenPieces(fens[p] ?? "");
    // The board may be drawn just after the ply changes (a position fetched): wait for it.
    let shown = "";
    await waitFor(`ply ${p}'s position`, async () => {
      shown = await shownPieces(page);
      return shown === expected;
    }).catch(() => fail(`ply ${p}: page shows ${shown}, server says ${fens[p]}`));
  }

  // --- Racing Kings: each side races its king to rank 8.
  const rk = await api.createGame({
    variant: Variant.RACING_KINGS,
    whitePlayer: "rosa",
    blackPlayer: "kurt",
    timeControl: { initial: { seconds: 60n }, increment: { seconds: 0n } },
  });
  const rkId = rk.game?.gameId ?? fail("no game id");
  await page.goto(`${proxy.url}/#/game/${rkId}`);
  await waitFor("the Racing Kings game", async () => (await text(page, "#connection")) === "Live");
  if ((await page.locator("#board .piece").count()) !== 16)
    fail("Racing Kings start is not 16 pieces");
  for (const [sq, piece] of [
    ["h2", "K"],
    ["a2", "k"],
    ["a1", "q"],
    ["h1", "Q"],
    ["e2", "N"],
  ]) {
    if (!(await page.locator(`#board [data-square="${sq}"][data-piece="${piece}"]`).count())) {
      fail(`Racing Kings: no ${piece} on ${sq}`);
    }
  }
  const rkPlayed: string[] = [];
  let game = rk.game ?? fail("no game");
  while (game.status === GameStatus.ONGOING) {
    const kingFrom = game.fen.split(" ")[1] === "w" ? "K" : "k";
    const placement = game.fen.split(" ")[0] ?? "";
    const ranks = placement.split("/");
    let from = "";
    ranks.forEach((r, i) => {
      let file = 0;
      for (const ch of r) {
        if (/\d/.test(ch)) file += Number(ch);
        else {
          if (ch === kingFrom) from = "abcdefgh"[file] + String(8 - i);
          file += 1;
        }
      }
    });
    const moves = game.legalMoves.filter((m) => m.uci.startsWith(from));
    moves.sort((a, b) => Number(b.uci[3]) - Number(a.uci[3]));
    const pick = moves[0] ?? game.legalMoves[0] ?? fail("no legal move");
    const r = await api.submitMove(
      { gameId: rkId, move: pick.uci },
      as(kingFrom === "K" ? rk.whiteToken : rk.blackToken),
    );
    rkPlayed.push(r.move?.san ?? "");
    game = r.game ?? fail("no game");
    if (rkPlayed.length > 40) fail("the race did not end");
  }
  await expectMoves(page, rkPlayed);
  await waitFor("the race result", async () =>
    / by the race to rank 8$/.test(await text(page, "#result")),
  );
  await page.screenshot({ path: path.join(artifacts, "racing-kings.png"), fullPage: true });

  // The list shows both games as finished.
  await page.goto(`${proxy.url}/`);
  await page.selectOption("#variant-filter", "0");
  await waitFor(
    "the finished games in the recent list",
    async () =>
      (await page
        .locator(
          `#recent-games li[data-game-id="${id}"], #recent-games li[data-game-id="${rkId}"], #recent-games li[data-game-id="${specialId}"]`,
        )
        .count()) === 3,
  );

  await page.screenshot({ path: path.join(artifacts, "games.png"), fullPage: true });

  return (
    `chess ${played.length} plies (stream cut and resumed), ` +
    `${specialMoves.length} plies stepped through from a snapshot, ` +
    `${longMoves.length} plies at phone width, Racing Kings ${rkPlayed.length} plies`
  );
}
