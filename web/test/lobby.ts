// The lobby's scenarios: every game chessd plays listed under its family with its one-line
// rules, each game's statistics as GetStats gives them (a game finished here first, so at least
// one is not empty), its live games counted, a rules page opened from its card (the manual's
// text, the game's statistics, its live game listed), and the lobby's screenshots
// (`lobby.png`, `lobby-phone.png`, `rules.png`, which docs/web.md shows).

import path from "node:path";
import type { Client } from "@connectrpc/connect";
import type { BrowserContext } from "playwright-core";

import { GAMES, gameInfo } from "../src/games.js";
import { type GameService, Variant } from "../src/gen/chessd/v1/chessd_pb.js";
import { statsText } from "../src/stats.js";
import { fail, startProxy, text, waitFor } from "./harness.js";

const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

export async function lobbyScenarios(
  browser: BrowserContext,
  api: Client<typeof GameService>,
  addr: string,
  artifacts: string,
): Promise<string> {
  const proxy = await startProxy(addr);
  const page = await browser.newPage();
  try {
    // A Horde game resigned by Black (a result to count) and a live Atomic one.
    const horde = await api.createGame({ variant: Variant.HORDE, whitePlayer: "hana", blackPlayer: "olaf" });
    await api.resign({ gameId: horde.game?.gameId ?? fail("no id") }, as(horde.blackToken));
    const atomic = await api.createGame({ variant: Variant.ATOMIC, whitePlayer: "ada", blackPlayer: "bo" });
    const atomicId = atomic.game?.gameId ?? fail("no id");

    await page.goto(`${proxy.url}/#/`);
    const stats = await api.getStats({});
    const byKey = new Map(stats.variants.map((v) => [v.variantKey, v]));
    // Every game the server plays is one the lobby knows, and the lobby lists no other.
    const unknown = [...byKey.keys()].filter((k) => !gameInfo(k));
    if (unknown.length) fail(`GetStats lists games the lobby does not know: ${unknown.join(", ")}`);
    const unplayed = GAMES.map((g) => g.key).filter((k) => !byKey.has(k));
    if (unplayed.length) fail(`GetStats lacks ${unplayed.join(", ")}, which the lobby lists`);
    for (const g of GAMES) {
      const card = page.locator(`#lobby .game-card[data-game="${g.key}"]`);
      await waitFor(`${g.name}'s card`, () => card.isVisible());
      const family = await card.evaluate((c) => c.closest(".family")?.querySelector("h2")?.textContent);
      if (family !== g.family) fail(`${g.name} is listed under ${family}, not ${g.family}`);
      if ((await text(page, `[data-game="${g.key}"] .summary`)) !== g.summary)
        fail(`${g.name}'s summary is not shown`);
      const want = statsText(byKey.get(g.key));
      await waitFor(`${g.name}'s statistics "${want}"`, async () => (await text(page, `[data-stats="${g.key}"]`)) === want);
    }
    const hordeStats = await text(page, '[data-stats="horde"]');
    if (!/^\d+ finished · White \d+% · Black \d+% · drawn \d+%$/.test(hordeStats))
      fail(`Horde's statistics read "${hordeStats}"`);
    await waitFor("Atomic's live game counted", async () =>
      /^\d+ live$/.test(await text(page, '[data-live="atomic"]')),
    );
    await page.screenshot({ path: path.join(artifacts, "lobby.png"), fullPage: false });

    // The rules page: opened from the card, the manual's text, statistics and live games.
    await page.locator('[data-game="atomic"] a.rules-link').click();
    await waitFor("Atomic's rules page", async () => page.url().endsWith("#/rules/atomic"));
    await waitFor("the rules' heading", async () => (await text(page, "#rules h2")) === "Atomic");
    const rules = await text(page, "#rules");
    if (!rules.includes("Every capture explodes")) fail(`the rules page lacks the rules: ${rules}`);
    await waitFor("Atomic's statistics", async () =>
      (await text(page, "#rules-stats")) === statsText(byKey.get("atomic")),
    );
    await waitFor("the live Atomic game listed", () =>
      page.locator(`#rules-live li[data-game-id="${atomicId}"]`).isVisible(),
    );
    // A link in the manual to another game's rules opens it in the page.
    await page.locator('#rules a[href="#/rules/chess"]').first().click();
    await waitFor("chess's rules page", async () => (await text(page, "#rules h2")) === "Chess");
    await page.screenshot({ path: path.join(artifacts, "rules.png"), fullPage: false });
    await page.goto(`${proxy.url}/#/rules/nosuchgame`);
    await waitFor("an unknown game's page", async () =>
      (await text(page, "main")).includes("chessd plays no game called"),
    );

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${proxy.url}/#/`);
    await waitFor("the lobby at phone width", () => page.locator('[data-game="chess"]').isVisible());
    await page.screenshot({ path: path.join(artifacts, "lobby-phone.png"), fullPage: false });
    return `${GAMES.length} games in ${new Set(GAMES.map((g) => g.family)).size} families with statistics, a rules page`;
  } finally {
    await page.close();
    await proxy.close();
  }
}
