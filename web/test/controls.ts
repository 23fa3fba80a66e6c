// The play controls, from two seat links: a takeback proposed, withdrawn, proposed and declined,
// proposed again and accepted (both boards and move lists back at the server's ply, then play going on); time
// given to the opponent; the opponent's page closed, shown away on the other, and the win
// claimed once the grace period has passed; and a game whose first move never comes, aborted by
// the server's first-move timer, the countdown shown until then.

import type { Client } from "@connectrpc/connect";
import type { BrowserContext } from "playwright-core";

import {
  ClockStart,
  GameService,
  TakebackPolicy,
  Variant,
} from "../src/gen/chessd/v1/chessd_pb.js";
import { expectBoard, expectMoves, fail, startProxy, text, waitFor } from "./harness.js";
import { SEAT_METHODS, actions, clickMove, player, sit } from "./seats.js";

export async function controlScenarios(
  context: BrowserContext,
  api: Client<typeof GameService>,
  addr: string,
): Promise<string> {
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const proxies = [await startProxy(addr), await startProxy(addr)] as const;
  const pages = [await context.newPage(), await context.newPage()] as const;
  const w = player(pages[0], proxies[0], "White's page");
  const b = player(pages[1], proxies[1], "Black's page");
  /** Both pages show the server's game: board and move list. */
  const synced = async (id: string, ply: number) => {
    const g = await waitFor(`the server at ply ${ply}`, async () => {
      const game = (await api.getGame({ gameId: id })).game ?? fail("no game");
      return game.ply === ply && game;
    });
    for (const p of [w, b]) {
      await expectBoard(p.page, g.ply, g.fen, p.name);
      await expectMoves(
        p.page,
        g.moves.map((m) => m.san),
      );
    }
    return g;
  };
  const offerLine = (p: typeof w, line: string) =>
    waitFor(`${p.name}: "${line}"`, async () => (await text(p.page, "#draw-offer")) === line);
  try {
    // Takebacks: 1. e4 e5 2. Nf3, then White asks for 2. Nf3 back.
    const tb = await api.createGame({
      variant: Variant.CHESS,
      whitePlayer: "wendy",
      blackPlayer: "bert",
      takebacks: TakebackPolicy.ON_REQUEST,
      timeControl: { initial: { seconds: 600n }, increment: { seconds: 0n } },
    });
    const id = tb.game?.gameId ?? fail("no game id");
    await sit(w, id, tb.whiteToken, "White");
    await sit(b, id, tb.blackToken, "Black");
    await clickMove(w, "e2", "e4");
    await synced(id, 1);
    // Black has no move of its own to take back yet; White has.
    if ((await actions(b)).includes("propose-takeback"))
      fail("Black is offered a takeback before its first move");
    await clickMove(b, "e7", "e5");
    await synced(id, 2);
    await clickMove(w, "g1", "f3");
    await synced(id, 3);
    await w.page.click('[data-action="propose-takeback"]');
    for (const p of [w, b]) await offerLine(p, "White proposes a takeback");
    await waitFor(
      "Black's answers",
      async () => (await actions(b)).includes("accept-takeback decline-takeback"),
    );
    if ((await actions(w)).includes("propose-takeback"))
      fail("White can propose again while its proposal stands");
    // White thinks better of it: Black has nothing left to answer.
    await w.page.click('[data-action="withdraw-takeback"]');
    for (const p of [w, b]) await offerLine(p, "White withdrew the takeback");
    await waitFor(
      "Black's answers gone",
      async () => !(await actions(b)).includes("accept-takeback"),
    );
    if ((await actions(b)).includes("withdraw-takeback"))
      fail("Black is offered to withdraw White's proposal");
    await w.page.click('[data-action="propose-takeback"]');
    await waitFor("the proposal again", async () =>
      (await actions(b)).includes("accept-takeback decline-takeback"),
    );
    await b.page.click('[data-action="decline-takeback"]');
    for (const p of [w, b]) await offerLine(p, "Black declined the takeback");
    await w.page.click('[data-action="propose-takeback"]');
    await waitFor("the proposal again", async () =>
      (await actions(b)).includes("accept-takeback"),
    );
    await b.page.click('[data-action="accept-takeback"]');
    for (const p of [w, b]) await offerLine(p, "One move taken back");
    const back = await synced(id, 2);
    if (back.moves.map((m) => m.san).join(" ") !== "e4 e5") fail("the takeback left other moves");
    // Play goes on from the earlier ply: 2. Nc3 this time.
    await clickMove(w, "b1", "c3");
    const after = await synced(id, 3);
    if (after.moves.at(-1)?.san !== "Nc3") fail(`the game went on with ${after.moves.at(-1)?.san}`);

    // Time given: Black gives White 15 seconds; White's clock shows it on both pages.
    const before = (await api.getGame({ gameId: id })).game?.clocks?.whiteRemaining?.seconds ?? 0n;
    await b.page.click('[data-action="add-time"]');
    for (const p of [w, b]) await offerLine(p, "Black gave White time");
    const given = (await api.getGame({ gameId: id })).game?.clocks?.whiteRemaining?.seconds ?? 0n;
    if (given < before + 14n) fail(`White's clock went from ${before} s to ${given} s`);

    // Presence: Black's page goes (Black to move); White's page shows Black away, then offers
    // the claim once the game's 2 s grace period has passed, and the win is White's.
    const cl = await api.createGame({
      variant: Variant.CHESS,
      whitePlayer: "wendy",
      blackPlayer: "bert",
      claimAfter: { seconds: 2n },
    });
    const cid = cl.game?.gameId ?? fail("no game id");
    await sit(w, cid, cl.whiteToken, "White");
    await sit(b, cid, cl.blackToken, "Black");
    const blackStrip = () => text(w.page, '#clock-top .presence');
    await waitFor("Black online on White's page", async () => (await blackStrip()) === "online");
    await api.submitMove({ gameId: cid, move: "e4" }, as(cl.whiteToken));
    await api.submitMove({ gameId: cid, move: "e5" }, as(cl.blackToken));
    await api.submitMove({ gameId: cid, move: "Nf3" }, as(cl.whiteToken));
    await b.page.goto("about:blank");
    await waitFor("Black away on White's page", async () =>
      (await blackStrip()).startsWith("away"),
    );
    if ((await actions(w)).includes("claim-victory"))
      fail("the claim is offered before the grace period has passed");
    await waitFor("the claim", async () => (await actions(w)).includes("claim-victory"));
    await w.page.click('[data-action="claim-victory"]');
    await w.page.click('[data-action="claim-victory-yes"]');
    await waitFor(
      "the win",
      async () => (await text(w.page, "#result")) === "1-0 · White wins by abandonment",
    );

    // The first-move timer: nobody moves, the countdown shows, and the server aborts the game.
    const fm = await api.createGame({
      variant: Variant.CHESS,
      whitePlayer: "wendy",
      blackPlayer: "bert",
      timeControl: { initial: { seconds: 60n }, increment: { seconds: 0n } },
      clockStart: ClockStart.AFTER_FIRST_MOVES,
      firstMoveTimeout: { seconds: 3n },
    });
    const fid = fm.game?.gameId ?? fail("no game id");
    await sit(b, fid, fm.blackToken, "Black");
    await waitFor("the countdown", async () =>
      /^White has 0:0[0-3] to make a first move, or the game is aborted$/.test(
        await text(b.page, "#first-move"),
      ),
    );
    await waitFor(
      "the abort",
      async () =>
        (await text(b.page, "#result")) === "Game aborted: the first move did not come in time",
    );
    if (await b.page.locator("#first-move").isVisible()) fail("the countdown outlived the game");

    for (const p of [w, b]) {
      for (const [method, auth] of p.calls) {
        if (auth !== undefined && !SEAT_METHODS.has(method))
          fail(`${p.name} sent a seat token with ${method}`);
      }
    }
    return "a takeback withdrawn, declined, then accepted, 15 s given, a win claimed from a page that left, a game aborted by its first-move timer";
  } finally {
    for (const p of pages) await p.close();
    for (const p of proxies) await p.close();
  }
}
