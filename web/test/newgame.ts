// Starting a game from the page. On the test's usual chessd (no --page-create) the lobby
// offers no "Play" and `#/new/<key>` says the server does not start games. On a second chessd
// with `--page-create` and API keys: a keyless CreateGame that sets what only a platform may
// (labels) or an unoffered time control is refused PERMISSION_DENIED/PAGE_CREATE_REFUSED, and a
// keyless ListGames is still refused (the lobby's cards say "Statistics unavailable"); from
// the lobby's "Play" on the Chess card the player picks 5+3 and Black and creates the game; a
// second page opens the friend's link shown and
// plays 1. e4 by clicks, the creator's page takes its own seat and answers 1... e5; the game on
// the server has both moves, the time control and the name. A Janus game (the wide family's,
// created by key alone) started from its card and 1. e4 clicked on its 10x8 board. Then against the deployment's
// computer opponent (`--page-create-bot robot`, served by chessd-bot in player mode with
// `chessd random-engine` as its engine, both built beside chessd): a Crazyhouse game created as
// White, 1. e4 played from the page, the bot's answer shown. Screenshots: `new-game.png`,
// `new-game-ready.png`.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Code, ConnectError, type Client, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import type { BrowserContext } from "playwright-core";

import { GameService } from "../src/gen/chessd/v1/chessd_pb.js";
import { boardShot, fail, startChessd, startProxy, text, waitFor } from "./harness.js";
import { type Player, clickMove, noTokenInPage, player } from "./seats.js";

/** The refusal a call meets, [code, message], or null when it succeeds. */
async function refusedWith(call: Promise<unknown>): Promise<[Code, string] | null> {
  try {
    await call;
    return null;
  } catch (e) {
    const err = ConnectError.from(e);
    return [err.code, err.rawMessage];
  }
}

export async function newGameScenarios(
  browser: BrowserContext,
  binary: string,
  plainAddr: string,
  artifacts: string,
): Promise<{ summary: string; stop: () => void }> {
  // The usual server offers nothing.
  const plainProxy = await startProxy(plainAddr);
  const page = await browser.newPage();
  await page.goto(`${plainProxy.url}/#/`);
  await waitFor("the lobby", () => page.locator('[data-game="chess"] .rules-link').isVisible());
  await waitFor("the statistics filled", async () => (await text(page, '[data-stats="chess"]')) !== "…");
  if (await page.locator(".play-link").count()) fail("the lobby offers Play without --page-create");
  await page.goto(`${plainProxy.url}/#/new/chess`);
  await waitFor("no game started from the page", () => page.locator("#new-off").isVisible());
  await page.close();
  await plainProxy.close();

  // A server that lets the page start games, behind API keys.
  const dir = mkdtempSync(path.join(tmpdir(), "chessd-keys-"));
  const keyFile = path.join(dir, "keys");
  const key = "test-key-for-the-page-create-scenario";
  writeFileSync(keyFile, `${key}\n`);
  const { proc, addr } = await startChessd(binary, [
    "--page-create",
    "--page-create-time-controls",
    "5+3,untimed",
    "--api-key-file",
    keyFile,
    "--page-create-bot",
    "robot",
  ]);
  let botProc: ReturnType<typeof spawn> | null = null;
  const stop = () => {
    // SIGTERM would let the bot finish its games first (by design), and chessd wait for it.
    botProc?.kill("SIGKILL");
    proc.kill("SIGTERM");
  };
  // Whatever fails from here on, this chessd must not outlive the test.
  process.on("exit", stop);
  const api: Client<typeof GameService> = createClient(
    GameService,
    createGrpcWebTransport({ baseUrl: `http://${addr}`, useBinaryFormat: true }),
  );
  const five = { initial: { seconds: 300n }, increment: { seconds: 3n } };
  const labelled = await refusedWith(api.createGame({ variantKey: "chess", timeControl: five, labels: { t: "x" } }));
  if (labelled?.[0] !== Code.PermissionDenied || !labelled[1].includes("labels"))
    fail(`a keyless CreateGame with labels: ${JSON.stringify(labelled)}`);
  const slow = await refusedWith(
    api.createGame({ variantKey: "chess", timeControl: { initial: { seconds: 3600n } } }),
  );
  if (slow?.[0] !== Code.PermissionDenied || !slow[1].includes("5+3, untimed")) fail(`an unoffered time control: ${JSON.stringify(slow)}`);
  const listed = await refusedWith(api.listGames({}));
  if (listed?.[0] !== Code.Unauthenticated) fail(`a keyless ListGames: ${JSON.stringify(listed)}`);

  const proxy = await startProxy(addr);
  const creator: Player = player(await browser.newPage(), proxy, "creator");
  const friend: Player = player(await browser.newPage(), proxy, "friend");
  try {
    const c = creator.page;
    await c.goto(`${proxy.url}/#/`);
    const play = c.locator('[data-game="chess"] a.play-link');
    await waitFor("the Chess card's Play link", () => play.isVisible());
    // GetStats needs a key here, which the page has not: the cards say so.
    await waitFor("statistics unavailable without a key", async () =>
      (await text(c, '[data-stats="chess"]')) === "Statistics unavailable",
    );
    await play.click();
    await waitFor("the new game form", () => c.locator("#new-game").isVisible());
    const offered = await c.locator("#new-time option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    if (offered.join(",") !== "5+3,untimed") fail(`the form offers ${offered.join(",")}`);
    await c.selectOption("#new-time", "5+3");
    await c.selectOption("#new-side", "black");
    await c.fill("#new-name", "wendy");
    await c.screenshot({ path: path.join(artifacts, "new-game.png") });
    await c.locator("#new-create").click();
    const link = c.locator("#friend-link");
    await waitFor("the friend's link", () => link.isVisible());
    const href = await link.inputValue();
    const m = /#\/game\/([0-9A-Za-z]+)\?seat=([0-9a-f]{32})$/.exec(href);
    if (!m?.[1] || !m[2]) fail(`the friend's link is ${href}`);
    const [gameId, friendToken] = [m[1], m[2]];
    await c.screenshot({ path: path.join(artifacts, "new-game-ready.png") });

    // The friend opens the link and plays White's first move.
    friend.tokens.push(friendToken);
    await friend.page.goto(href.replace(/^http:\/\/[^/]+/, proxy.url));
    await waitFor("the friend seated as White", async () =>
      (await text(friend.page, "#seat")).startsWith("You play White"),
    );
    await noTokenInPage(friend);
    await clickMove(friend, "e2", "e4");

    // The creator takes its own seat from the button and answers.
    await c.locator("#play-own").click();
    await waitFor("the creator seated as Black", async () => (await text(c, "#seat")).startsWith("You play Black"));
    if ((await c.evaluate(() => location.href)).includes("seat=")) fail("the creator's token stayed in the address");
    await clickMove(creator, "e7", "e5");
    await waitFor("both moves on the friend's page", async () =>
      (await friend.page.locator("#moves button").allTextContents()).join(" ") === "e4 e5",
    );
    const game = (await api.getGame({ gameId })).game ?? fail("no game");
    if (game.moves.map((x) => x.san).join(" ") !== "e4 e5") fail(`the server has ${game.moves.map((x) => x.san).join(" ")}`);
    if (game.blackPlayer !== "wendy" || game.whitePlayer !== "") fail(`players: ${game.whitePlayer} – ${game.blackPlayer}`);
    if (game.timeControl?.initial?.seconds !== 300n || game.timeControl?.increment?.seconds !== 3n)
      fail("the game is not 5+3");

    // A game of the wide family from its card: created by key alone, played on its 10x8 board.
    await c.goto(`${proxy.url}/#/`);
    const janusPlay = c.locator('[data-game="janus"] a.play-link');
    await waitFor("the Janus card's Play link", () => janusPlay.isVisible());
    await janusPlay.click();
    await waitFor("the Janus form", async () => (await text(c, "main h2")) === "New Janus Chess game");
    await c.selectOption("#new-time", "untimed");
    await c.selectOption("#new-side", "white");
    await c.locator("#new-create").click();
    await waitFor("the Janus game created", () => c.locator("#play-own").isVisible());
    await c.locator("#play-own").click();
    await waitFor("seated as White in Janus", async () => (await text(c, "#seat")).startsWith("You play White"));
    const janusId = /#\/game\/([0-9A-Za-z]+)/.exec(await c.evaluate(() => location.href))?.[1] ?? fail("no game id");
    if ((await c.locator("#board rect.sq.light, #board rect.sq.dark").count()) !== 80)
      fail("the Janus board has not 80 squares");
    if (!(await text(c, "#game-title")).endsWith("· Janus Chess")) fail(`the title reads ${await text(c, "#game-title")}`);
    await clickMove(creator, "e2", "e4");
    const janus = await waitFor("the Janus move on the server", async () => {
      const g = (await api.getGame({ gameId: janusId })).game;
      return g?.moves.length === 1 && g;
    });
    if (janus.variantKey !== "janus" || janus.moves[0]?.uci !== "e2e4")
      fail(`the server has ${janus.variantKey} ${janus.moves[0]?.uci}`);
    // The 10x8 family's picture in the docs: the januses at their start, 1. e4 played.
    await waitFor("the Janus page at ply 1", async () => {
      const board = c.locator("#board");
      return (await board.getAttribute("data-ply")) === "1" && !(await board.getAttribute("data-pending"));
    });
    await boardShot(c, artifacts, "janus");

    // The computer opponent: chessd-bot in player mode for "robot".
    const botBinary = path.join(path.dirname(binary), "chessd-bot");
    if (!existsSync(botBinary)) fail(`no ${botBinary}: cargo build -p chessd-bot first`);
    const issued = await api.issuePlayerToken({ playerId: "robot" }, { headers: { "x-api-key": key } });
    botProc = spawn(
      botBinary,
      ["--addr", `http://${addr}`, "--engine", binary, "--engine-arg", "random-engine", "--max-games", "2"],
      { stdio: "ignore", env: { ...process.env, CHESSD_PLAYER_TOKEN: issued.token } },
    );
    await c.goto(`${proxy.url}/#/new/crazyhouse`);
    await waitFor("the form with the computer offered", () => c.locator('#new-opponent option[value="bot"]').count());
    if ((await c.locator('#new-opponent option[value="bot"]').textContent()) !== "The computer (robot)")
      fail("the computer is not offered by its name");
    await c.selectOption("#new-side", "white");
    await c.selectOption("#new-opponent", "bot");
    await c.locator("#new-create").click();
    await waitFor("the game against the computer", () => c.locator("#bot-note").isVisible());
    if (await c.locator("#friend-link").count()) fail("a friend's link against the computer");
    await c.locator("#play-own").click();
    await waitFor("seated as White", async () => (await text(c, "#seat")).startsWith("You play White"));
    await clickMove(creator, "e2", "e4");
    await waitFor("the computer's answer", async () => (await c.locator("#moves button").count()) >= 2);
    const title = await text(c, "#game-title");
    if (!title.includes("robot") || !title.includes("Crazyhouse")) fail(`the title reads ${title}`);
    return {
      summary:
        "a Chess game started from the lobby (5+3, Black), the friend's link played, 1. e4 e5; " +
        "a Janus game started from its card and played on its 10x8 board; " +
        "a Crazyhouse game against the computer (chessd-bot) answered",
      stop,
    };
  } finally {
    await creator.page.close();
    await friend.page.close();
    await proxy.close();
  }
}
