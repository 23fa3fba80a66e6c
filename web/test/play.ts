// The player's scenarios: two pages, one per seat link, play a whole game to checkmate through
// the page (clicks, drags, the keyboard, a typed move, en passant, an underpromotion through the
// picker), with a draw offer declined, a typed move refused, a move refused because another
// device of the same seat moved first (shown, then taken back), and an answer lost on the way
// back (retried with the same request id, played once); the move box's examples, and a page
// opened at phone width kept at its top as moves come. Every board is checked against the
// server's FEN. Then a threefold repetition claimed from the page, and a game aborted. All
// along: the seat tokens appear in no request URL and nowhere in the page's DOM, and go only on
// the seat's own game calls.

import path from "node:path";
import type { Client } from "@connectrpc/connect";
import type { BrowserContext } from "playwright-core";

import { GameService, Variant } from "../src/gen/chessd/v1/chessd_pb.js";
import {
  boardInSight,
  expectBoard,
  expectMoves,
  fail,
  placeholder,
  startProxy,
  text,
  waitFor,
} from "./harness.js";
import {
  SEAT_METHODS,
  actions,
  centre,
  clickMove,
  clickSquare,
  dragMove,
  keys,
  noTokenInPage,
  player,
  sit,
  targets,
  typeMove,
} from "./seats.js";

/** The game: 3. exd6 is en passant, 5. c8=N the underpromotion that mates on move 6. */
const GAME = "e4 a6 e5 d5 exd6 e6 dxc7 Bd7 c8=N Ne7 Nd6#".split(" ");

export async function playScenarios(
  context: BrowserContext,
  api: Client<typeof GameService>,
  addr: string,
  artifacts: string,
): Promise<string> {
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  /** A chess game between wendy and bert: its id and seat tokens. */
  const newGame = async (seconds?: bigint) => {
    const created = await api.createGame({
      variant: Variant.CHESS,
      whitePlayer: "wendy",
      blackPlayer: "bert",
      timeControl: seconds ? { initial: { seconds }, increment: { seconds: 0n } } : undefined,
    });
    const id = created.game?.gameId ?? fail("no game id");
    return { id, whiteToken: created.whiteToken, blackToken: created.blackToken };
  };
  const proxies = [await startProxy(addr), await startProxy(addr)] as const;
  const pages = [await context.newPage(), await context.newPage()] as const;
  const w = player(pages[0], proxies[0], "White's page");
  const b = player(pages[1], proxies[1], "Black's page");
  try {
    const { id, ...created } = await newGame(600n);
    await sit(w, id, created.whiteToken, "White");
    await sit(b, id, created.blackToken, "Black");

    const sans: string[] = [];
    /** Both boards and move lists are the server's. */
    const synced = async () => {
      // The page's call may still be on its way.
      const g = await waitFor(`the server at ply ${sans.length}`, async () => {
        const game = (await api.getGame({ gameId: id })).game ?? fail("no game");
        if (game.ply > sans.length)
          fail(`the server is at ply ${game.ply}, the script at ${sans.length}`);
        return game.ply === sans.length && game;
      });
      const played = g.moves.map((m) => m.san);
      if (played.join(" ") !== GAME.slice(0, g.ply).join(" "))
        fail(`the server played ${played.join(" ")}`);
      for (const p of [w, b]) {
        await expectBoard(p.page, g.ply, g.fen, p.name);
        await expectMoves(p.page, played);
      }
      return g;
    };
    const next = () => {
      sans.push(GAME[sans.length] ?? fail("the script ended"));
    };
    /** The script's next move was played: both pages show it. */
    const played = () => {
      next();
      return synced();
    };

    // Each side sees the board from its own side: White's king at the top of Black's board.
    if (
      !(
        await b.page.locator('#board .piece[data-square="e1"]').getAttribute("transform")
      )?.endsWith(" 0)")
    ) {
      fail("Black's board is not turned to Black's side");
    }
    if ((await b.page.locator("#clock-bottom").getAttribute("data-color")) !== "black")
      fail("Black's clock is not at the bottom");
    if ((await w.page.locator("#clock-bottom").getAttribute("data-color")) !== "white")
      fail("White's clock is not at the bottom");
    for (const p of [w, b]) {
      if ((await actions(p)) !== "abort offer-draw add-time resign")
        fail(`${p.name} offers ${await actions(p)} before the first move`);
    }

    // 1. e4 by clicks; the marked squares are the server's legal moves from e2.
    const start = await synced();
    await clickSquare(w, "e2");
    const legal = start.legalMoves
      .filter((m) => m.uci.startsWith("e2"))
      .map((m) => m.uci.slice(2, 4));
    await waitFor("e2's targets", async () => (await targets(w)) === legal.sort().join(" "));
    await w.page.screenshot({ path: path.join(artifacts, "play-targets.png") });
    // Not Black's turn: Black's pieces do not pick up.
    await clickSquare(b, "e7");
    if (await b.page.locator("#board [data-target]").count())
      fail("Black picked up a piece on White's turn");
    await clickSquare(w, "e4");
    await played();

    // A typed move that is not legal is refused with the reason, and nothing moves; then 1... a6
    // typed. Both abort buttons go once both sides have moved.
    await typeMove(b, "Ke7");
    await waitFor(
      "the refusal of Ke7",
      async () =>
        (await text(b.page, "#play-message")) === "That move is not legal in this position.",
    );
    await typeMove(b, "a6");
    await played();
    for (const p of [w, b]) {
      await waitFor(
        `${p.name} without abort`,
        async () => (await actions(p)) === "offer-draw add-time resign",
      );
    }

    // A reload keeps the seat (this tab's sessionStorage), still without the token in the address.
    await w.page.reload();
    await waitFor("White seated again after a reload", async () =>
      (await text(w.page, "#seat")).startsWith("You play White"),
    );
    if ((await w.page.evaluate(() => location.href)).includes(created.whiteToken))
      fail("the token is back in the address");
    await synced();

    // A draw offer, declined.
    await w.page.click('[data-action="offer-draw"]');
    for (const p of [w, b]) {
      await waitFor(
        `${p.name}: the offer`,
        async () => (await text(p.page, "#draw-offer")) === "White offers a draw",
      );
    }
    if ((await actions(w)) !== "add-time resign")
      fail(`White's page offers ${await actions(w)} while its offer stands`);
    await waitFor(
      "Black's answers",
      async () => (await actions(b)) === "accept-draw decline-draw add-time resign",
    );
    await b.page.click('[data-action="decline-draw"]');
    for (const p of [w, b]) {
      await waitFor(
        `${p.name}: the refusal`,
        async () => (await text(p.page, "#draw-offer")) === "Black declined the draw",
      );
      await waitFor(
        `${p.name}: offer again`,
        async () => (await actions(p)) === "offer-draw add-time resign",
      );
    }

    // 2. e5 from the keyboard: the cursor starts on the king (e1), up to e4, pick, up, put.
    await keys(w, "ArrowUp", "ArrowUp", "ArrowUp", "Enter", "ArrowUp", "Enter");
    await played();

    // A pawn dragged away and dropped back beside its centre returns to its square, still
    // picked up; 2... d5 dragged; 3. exd6 (en passant) dragged.
    const d7 = await centre(b, "d7");
    const d4 = await centre(b, "d4");
    await b.page.mouse.move(d7.x, d7.y);
    await b.page.mouse.down();
    await b.page.mouse.move(d4.x, d4.y, { steps: 4 });
    await b.page.mouse.move(d7.x + 9, d7.y - 7, { steps: 4 });
    await b.page.mouse.up();
    const pawn = b.page.locator('#board .piece[data-square="d7"]');
    await waitFor(
      "the pawn back on d7",
      async () =>
        (await pawn.getAttribute("transform")) === "translate(400 600)" &&
        !(await b.page.locator("#board .dragging").count()) &&
        (await targets(b)) === "d5 d6",
    );
    await clickSquare(b, "d7");
    await waitFor("the pawn put down", async () => (await targets(b)) === "");
    await dragMove(b, "d7", "d5");
    await played();
    await dragMove(w, "e5", "d6");
    await played();

    // Black's other device plays 3... e6 while this page is cut off; the page's own 3... exd6
    // shows at once, is retried with the same request id when the connection is back, is
    // refused (the game is no longer at ply 5), and goes.
    b.proxy.cut();
    await waitFor("Black's page cut off", async () =>
      (await text(b.page, "#connection")).startsWith("Reconnecting"),
    );
    await api.submitMove({ gameId: id, move: "e6" }, as(created.blackToken));
    next();
    const sentBefore = b.submits.length;
    const failedBefore = b.failed;
    await clickMove(b, "e7", "d6");
    await waitFor(
      "Black's move shown before any answer",
      async () => (await b.page.locator("#board").getAttribute("data-pending")) === "e7d6",
    );
    await waitFor("Black's move failing to go", async () => b.failed > failedBefore);
    b.proxy.restore();
    await waitFor("the refusal of 3... exd6", async () =>
      (await text(b.page, "#play-message")).includes("moved on"),
    );
    await synced();
    const tries = b.submits.slice(sentBefore);
    if (
      tries.length < 2 ||
      tries.some(
        (t) => t.requestId !== tries[0]?.requestId || t.expectedPly !== 5 || t.move !== "e7d6",
      )
    ) {
      fail(
        `3... exd6 was sent as ${JSON.stringify(tries.map((t) => [t.move, t.requestId, t.expectedPly]))}`,
      );
    }

    // 4. dxc7 whose first answer is lost: retried with the same request id, played once, and
    // no refusal shown (a retry without the id would have met PLY_MISMATCH).
    const wBefore = w.submits.length;
    w.proxy.dropAnswers("SubmitMove", 1);
    await clickMove(w, "d6", "c7");
    await played();
    // The stream may show the move before the retry has its answer: wait for the answer.
    await waitFor(
      "the retried move's answer",
      async () => w.submits.length - wBefore >= 2 && (await text(w.page, "#play-message")) === "",
    );
    const wTries = w.submits.slice(wBefore);
    if (w.proxy.dropped() !== 1) fail(`${w.proxy.dropped()} answers were lost, not 1`);
    if (
      wTries.length < 2 ||
      wTries.some((t) => t.requestId !== wTries[0]?.requestId || t.expectedPly !== 6)
    ) {
      fail(
        `4. dxc7 was sent as ${JSON.stringify(wTries.map((t) => [t.move, t.requestId, t.expectedPly]))}`,
      );
    }

    // 4... Bd7 from the keyboard on Black's turned board: from the king (e8) right twice is c8.
    await keys(b, "ArrowRight", "ArrowRight", "Enter", "ArrowUp", "ArrowLeft", "Enter");
    await played();

    // Resigning asks first; "Cancel" keeps the game on.
    await b.page.click('[data-action="resign"]');
    await waitFor("the question", async () =>
      (await text(b.page, "#actions")).startsWith("Resign this game?"),
    );
    await b.page.click('[data-action="resign-no"]');
    await waitFor(
      "the buttons back",
      async () => (await actions(b)) === "offer-draw add-time resign",
    );

    // The move box's examples fit it and offer no drop in chess.
    for (const p of [w, b]) {
      const hint = await placeholder(p.page);
      if (hint.text.includes("@")) fail(`${p.name}'s move box offers a drop: ${hint.text}`);
      if (hint.width > hint.room)
        fail(`${p.name}'s move box cuts "${hint.text}" (${hint.width}px in ${hint.room}px)`);
    }

    // Phone width, opened on a game under way: the page fits (board, buttons, the move form),
    // stays at its top with the opponent's clock, the whole board and the player's clock in
    // sight (the move list is below them), and stays there when a move comes.
    await b.page.setViewportSize({ width: 390, height: 844 });
    await b.page.reload();
    await waitFor("Black seated again at phone width", async () =>
      (await text(b.page, "#seat")).startsWith("You play Black"),
    );
    await synced();
    await boardInSight(b.page, "Black's page opened at phone width");
    const box = await b.page.locator("#board svg").boundingBox();
    if (!box || box.width > 390) fail(`the board is ${box?.width}px wide at phone width`);
    const wide = await b.page.evaluate(() => document.documentElement.scrollWidth);
    if (wide > 390) fail(`the player's page is ${wide}px wide at phone width`);
    const hint = await placeholder(b.page);
    if (hint.width > hint.room)
      fail(`at phone width the move box cuts "${hint.text}" (${hint.width}px in ${hint.room}px)`);
    await b.page.screenshot({ path: path.join(artifacts, "play-phone-open.png") });
    await b.page.screenshot({ path: path.join(artifacts, "play-phone.png"), fullPage: true });

    // 5. c8=N: dragged to the last rank, the picker offers the four pieces, the knight is taken.
    await dragMove(w, "c7", "c8");
    const choices = await w.page
      .locator("#promotion [data-promotion]")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-promotion")));
    if (choices.join("") !== "qrbn") fail(`the picker offers ${choices.join(",")}`);
    await w.page.screenshot({ path: path.join(artifacts, "play-promotion.png") });
    await w.page.click('#promotion [data-promotion="n"]');
    await played();
    await boardInSight(b.page, "Black's page at phone width after 5. c8=N");
    await b.page.screenshot({ path: path.join(artifacts, "play-phone-moved.png") });
    await b.page.setViewportSize({ width: 1000, height: 800 });

    // 5... Ne7, 6. Nd6#.
    await clickMove(b, "g8", "e7");
    await played();
    await clickMove(w, "c8", "d6");
    await played();
    for (const p of [w, b]) {
      await waitFor(
        `${p.name}: the result`,
        async () => (await text(p.page, "#result")) === "1-0 · White wins by checkmate",
      );
      if ((await actions(p)) !== "") fail(`${p.name} still offers ${await actions(p)}`);
      if (await p.page.locator("#move-form").isVisible())
        fail(`${p.name} still shows the move form`);
    }
    await waitFor("White's win", async () => (await text(w.page, "#seat")).endsWith("you won"));
    await waitFor("Black's loss", async () => (await text(b.page, "#seat")).endsWith("you lost"));
    await w.page.screenshot({ path: path.join(artifacts, "play-mate.png"), fullPage: true });

    for (const p of [w, b]) await noTokenInPage(p);

    // Threefold repetition: the knights go out and back twice; the claim appears on White's
    // turn when the start position stands for the third time, not before, and draws the game.
    const { id: repId, ...rep } = await newGame();
    await sit(w, repId, rep.whiteToken, "White");
    const shuffle = "Nf3 Nf6 Ng1 Ng8".split(" ");
    for (const [i, san] of [...shuffle, ...shuffle].entries()) {
      await api.submitMove(
        { gameId: repId, move: san },
        as(i % 2 ? rep.blackToken : rep.whiteToken),
      );
      if (i === 3) {
        await waitFor(
          "ply 4",
          async () => (await w.page.locator("#board").getAttribute("data-ply")) === "4",
        );
        if ((await actions(w)).includes("claim"))
          fail("a claim is offered at the second occurrence");
      }
    }
    await waitFor(
      "the claim",
      async () => (await actions(w)) === "offer-draw claim-threefold resign",
    );
    await w.page.click('[data-action="claim-threefold"]');
    await waitFor(
      "the draw",
      async () => (await text(w.page, "#result")) === "½-½ · Draw by repetition",
    );

    // Abort before both sides moved.
    const { id: abId, ...ab } = await newGame();
    await sit(b, abId, ab.blackToken, "Black");
    await b.page.click('[data-action="abort"]');
    await waitFor("the abort", async () => (await text(b.page, "#result")) === "Game aborted");
    await waitFor("the seat's line", async () =>
      (await text(b.page, "#seat")).endsWith("the game was aborted"),
    );

    // The side comes from GetGame's seat, so a finished game's seat link still names it; a
    // token of another game holds no seat in this one: the page says so, offers nothing, and
    // forgets it (a reload is a spectator's page).
    await sit(b, id, created.blackToken, "Black");
    await waitFor("Black's finished game", async () =>
      (await text(b.page, "#seat")).endsWith("you lost"),
    );
    b.tokens.push(ab.whiteToken);
    await b.page.goto(`${b.proxy.url}/#/game/${id}?seat=${ab.whiteToken}`);
    const notHere = "This seat link is not valid for this game: you can watch, not play.";
    await waitFor("another game's token refused", async () =>
      (await text(b.page, "#seat")) === notHere && (await actions(b)) === "",
    );
    await b.page.reload();
    const mated = (await api.getGame({ gameId: id })).game ?? fail("no game");
    await expectBoard(b.page, mated.ply, mated.fen, b.name);
    if ((await text(b.page, "#seat")) !== "") fail("the forgotten token still shows a seat line");

    // The tokens: in no URL, only on the seat's game calls, never on ListGames.
    for (const p of [w, b]) {
      await noTokenInPage(p);
      for (const url of p.urls) {
        if (p.tokens.some((t) => url.includes(t))) fail(`${p.name} put a seat token in a URL`);
      }
      for (const [method, auth] of p.calls) {
        if (auth === undefined) continue;
        if (!SEAT_METHODS.has(method)) fail(`${p.name} sent a seat token with ${method}`);
        if (!p.tokens.some((t) => auth === `Bearer ${t}`))
          fail(`${p.name} sent authorization ${auth.slice(0, 10)}…`);
      }
      if (!p.calls.some(([m, a]) => m === "SubmitMove" && a))
        fail(`${p.name} never sent a move with its token`);
    }
    return `two seats played ${GAME.length} plies to mate (${b.failed} failed sends, ${w.proxy.dropped()} lost answers), a threefold claim, an abort`;
  } finally {
    for (const p of pages) await p.close();
    for (const p of proxies) await p.close();
  }
}
