// The time to first board: how long after navigation a spectator's page draws the board of a
// live game, read from the mark the page sets when it first draws a position (FIRST_BOARD,
// timing.ts; its startTime counts from the navigation's start). Each load is a new tab with the
// HTTP cache off, so the page, its script and the game all come from chessd each time. A chess
// game and a shogi game, each loaded FIRST_BOARD_LOADS times (5 unless told); the test fails
// only when a load draws no board, and prints every load's time and their median.

import type { BrowserContext } from "playwright-core";

import { Variant } from "../src/gen/chessd/v1/chessd_pb.js";
import { FIRST_BOARD } from "../src/timing.js";
import { fail, waitFor } from "./harness.js";
import { type Api, create, playApi } from "./variantkit.js";

const LOADS = Number(process.env.FIRST_BOARD_LOADS ?? 5);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

/** Milliseconds from navigation to the first board, for each of LOADS loads of `url`. */
async function loads(browser: BrowserContext, url: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const page = await browser.newPage();
    try {
      const cdp = await browser.newCDPSession(page);
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await page.goto(url);
      const at = await waitFor(`the first board of ${url}`, () =>
        page.evaluate(
          (mark) => performance.getEntriesByName(mark)[0]?.startTime ?? null,
          FIRST_BOARD,
        ),
      );
      if (!(await page.locator("#board svg.board .piece").count())) fail(`${url}: no pieces`);
      times.push(at);
    } finally {
      await page.close();
    }
  }
  return times;
}

export async function firstBoardScenarios(
  browser: BrowserContext,
  api: Api,
  addr: string,
): Promise<string> {
  const chess = await create(api, { variant: Variant.CHESS });
  await playApi(api, chess, ["e4", "e5", "Nf3", "Nc6"]);
  const shogi = await create(api, { variantKey: "shogi" });
  await playApi(api, shogi, ["P-7f", "P-3d", "P-2f", "P-8d"]);
  const parts: string[] = [];
  for (const [name, id] of [
    ["chess", chess.id],
    ["shogi", shogi.id],
  ] as const) {
    const times = await loads(browser, `http://${addr}/#/game/${id}`);
    const shown = times.map((t) => t.toFixed(0)).join(", ");
    parts.push(`${name} median ${median(times).toFixed(0)} ms (${shown})`);
  }
  return `first board of a spectator, ${LOADS} cold loads each: ${parts.join("; ")}`;
}
