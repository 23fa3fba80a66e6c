// End-to-end test of the page in a real headless Chromium: starts chessd, then runs the
// spectator's scenarios (spectator.ts: games played over gRPC from here, watched, resumed
// after a cut, stepped through), the player's (play.ts: two pages, one per seat link, play
// a whole game to mate; controls.ts: takebacks, time given, a claim, the first-move timer)
// and the variants' (watchvariants.ts: Three-check, King of the Hill,
// Atomic, Antichess and Horde watched to their ends; variants.ts: Crazyhouse drops, Chess960
// castling and an Antichess promotion played; wide.ts: Grand, Capablanca and Loop played by
// clicks on their own boards; eastern.ts: shogi's promotion choice and drop, and xiangqi on its
// points, played by clicks; site.ts: an Ice Age game whose first move takes ice, once the
// server plays it; each family's game, these and Dark, Dice and Screen Chess, then played to its
// end on both pages by a mate, a king taken, a resignation or an agreed draw), then the
// lobby's (lobby.ts: every game, its statistics, a rules page; newgame.ts: a game started from the page under --page-create and played from the friend's
// link), then the time to first board (firstboard.ts). Every page must ask nothing of another origin and hit no
// Content-Security-Policy refusal or script error. Saves screenshots to web/test-artifacts/.
//
// Usage (web/test/run.sh bundles and runs it): node browser.mjs <path-to-chessd>

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { type Page, chromium } from "playwright-core";

import { GameService } from "../src/gen/chessd/v1/chessd_pb.js";
import { fail, servePageFrom, startChessd, startProxy } from "./harness.js";
import { controlScenarios } from "./controls.js";
import { firstBoardScenarios } from "./firstboard.js";
import { lobbyScenarios } from "./lobby.js";
import { newGameScenarios } from "./newgame.js";
import { siteScenarios } from "./site.js";
import { playScenarios } from "./play.js";
import { spectatorScenarios } from "./spectator.js";
import { variantScenarios } from "./variants.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = path.resolve(process.env.ARTIFACTS ?? "test-artifacts");

async function main(): Promise<void> {
  const binary = process.argv[2] ?? fail("usage: browser.mjs <path-to-chessd>");
  mkdirSync(ARTIFACTS, { recursive: true });
  const { proc, addr } = await startChessd(binary);
  // Whatever fails from here on, chessd must not outlive the test.
  process.on("exit", () => proc.kill("SIGTERM"));
  const proxy = await startProxy(addr);
  const profile = mkdtempSync(path.join(tmpdir(), "chessd-chromium-"));
  process.on("exit", () => rmSync(profile, { recursive: true, force: true }));
  // A fresh profile directory (playwright passes it as --user-data-dir).
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1000, height: 800 },
  });
  // The page as built here when the binary embeds another tree's (see run.sh).
  if (process.env.WEB_DIST) await servePageFrom(browser, path.resolve(process.env.WEB_DIST));
  // Every page of the test: requests to other origins, CSP refusals and script errors.
  const problems: string[] = [];
  const guard = (page: Page) => {
    page.on("request", (r) => {
      if (!r.url().startsWith("http://127.0.0.1:"))
        problems.push(`request to another origin: ${r.url()}`);
    });
    page.on("console", (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  };
  browser.pages().forEach(guard);
  browser.on("page", guard);
  // The second chessd of the start-a-game scenarios, stopped with the first.
  let stopSecond = () => {};
  try {
    const api = createClient(
      GameService,
      // gRPC-Web over Node's fetch: the same transport the page uses, straight to chessd.
      createGrpcWebTransport({ baseUrl: `http://${addr}`, useBinaryFormat: true }),
    );
    const t0 = Date.now();
    const page = browser.pages()[0] ?? (await browser.newPage());
    const watched = await spectatorScenarios(page, api, proxy, ARTIFACTS);
    const t1 = Date.now();
    const played = await playScenarios(browser, api, addr, ARTIFACTS);
    const controls = await controlScenarios(browser, api, addr);
    const t2 = Date.now();
    const variants = await variantScenarios(browser, api, addr, ARTIFACTS);
    const site = await siteScenarios(browser, api, addr, ARTIFACTS);
    const t3 = Date.now();
    const lobby = await lobbyScenarios(browser, api, addr, ARTIFACTS);
    const started = await newGameScenarios(browser, binary, addr, ARTIFACTS);
    stopSecond = started.stop;
    const t4 = Date.now();
    const firstBoard = await firstBoardScenarios(browser, api, addr);
    if (problems.length) fail(`page problems:\n${problems.join("\n")}`);
    const took = (a: number, b: number) => `${((b - a) / 1000).toFixed(1)} s`;
    console.log(
      `browser test passed: watching: ${watched} (${took(t0, t1)}); ` +
        `playing: ${played}; ${controls} (${took(t1, t2)}); ` +
        `variants: ${variants}; ${site} (${took(t2, t3)}); ` +
        `lobby: ${lobby}; ${started.summary} (${took(t3, t4)}); ${firstBoard}; ` +
        `screenshots in ${ARTIFACTS}`,
    );
  } finally {
    await browser.close();
    proc.kill("SIGTERM");
    stopSecond();
    await proxy.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
