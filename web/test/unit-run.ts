// Runs the page's unit tests (unit.ts, bundled for the browser by unit.sh) in headless
// Chromium on a blank page, prints each outcome, then drives real mouse clicks on playable
// 10x10 and 6x6 boards (unit.ts' `mountInput`) and checks the moves they pick. Exits non-zero
// on any failure. Usage: node unit-run.mjs <unit bundle>

import { readFileSync } from "node:fs";
import { type Page, chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** The page position of a square's centre on the board drawn in the page. */
async function centre(page: Page, square: string): Promise<[number, number]> {
  const box = await page.locator(`rect.sq[data-square="${square}"]`).boundingBox();
  if (!box) throw new Error(`no square ${square}`);
  return [box.x + box.width / 2, box.y + box.height / 2];
}

async function click(page: Page, square: string): Promise<void> {
  const [x, y] = await centre(page, square);
  await page.mouse.click(x, y);
}

async function played(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { played: string[] }).played);
}

async function main(): Promise<void> {
  const bundle = readFileSync(process.argv[2] ?? "", "utf8");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  const failures: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 800 } });
    page.on("pageerror", (e) => failures.push(`page error: ${e.message}`));
    await page.setContent("<!doctype html><html><body style='margin:0'></body></html>");
    await page.addScriptTag({ content: bundle });
    const results = await page.evaluate(() => window.unitResults);
    for (const r of results) {
      console.log(`${r.error ? "FAIL" : "ok  "} ${r.name}`);
      if (r.error) failures.push(`${r.name}: ${r.error}`);
    }
    const scenarios: {
      name: string;
      fen: string;
      files: number;
      ranks: number;
      legal: string[];
      flipped: boolean;
      clicks: string[];
      want: string[];
      /** The picker's buttons' promotions in order ("-": stay a pawn), and the one clicked. */
      pick?: { offered: string; choose: string };
      /** Clicks after the picker's choice (an Ambiguous Chess mark). */
      then?: string[];
      /** The game, for its pieces and board (Grand's unless told). */
      key?: string;
    }[] = [
      {
        name: "10x10: a click on the pawn on j3, then on j5",
        fen: "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
        files: 10,
        ranks: 10,
        legal: ["j3j4", "j3j5", "a1a2"],
        flipped: false,
        clicks: ["j3", "j5"],
        want: ["j3j5"],
      },
      {
        name: "10x10 flipped: a pawn on j9 promoted on j10 to a chancellor from the picker",
        fen: "k9/9P/10/10/10/10/10/10/10/K9 w - - 0 1",
        files: 10,
        ranks: 10,
        legal: ["j9j10q", "j9j10c", "j9j10a"],
        flipped: true,
        clicks: ["j9", "j10"],
        want: ["j9j10c"],
        pick: { offered: "qca", choose: "c" },
      },
      {
        name: "Grand: a pawn on e7 to e8 may stay a pawn, offered after the pieces it may become",
        fen: "k9/10/10/4P5/10/10/10/10/10/K9 w - - 0 1",
        files: 10,
        ranks: 10,
        legal: ["e7e8", "e7e8q", "e7e8c"],
        flipped: false,
        clicks: ["e7", "e8"],
        want: ["e7e8"],
        pick: { offered: "qc-", choose: "" },
      },
      {
        name: "shogi: the bishop into the far ranks may promote or not; the picker asks",
        fen: "4k4/9/9/9/9/9/9/1B7/4K4[] w - - 0 1",
        files: 9,
        ranks: 9,
        legal: ["b2h8", "b2h8+", "b2c3"],
        flipped: false,
        clicks: ["b2", "h8"],
        want: ["b2h8+"],
        pick: { offered: "+-", choose: "+" },
        key: "shogi",
      },
      {
        name: "shogi as gote: declining the promotion",
        fen: "4k4/7b1/9/9/9/9/9/9/4K4[] b - - 0 1",
        files: 9,
        ranks: 9,
        legal: ["h8b2", "h8b2+"],
        flipped: true,
        clicks: ["h8", "b2"],
        want: ["h8b2"],
        pick: { offered: "+-", choose: "" },
        key: "shogi",
      },
      {
        name: "Ice Age: a click on the pawn on h2, then on the ice cube on g3, takes it",
        fen: "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        files: 8,
        ranks: 8,
        legal: ["h2g3", "g1f3", "g1h3"],
        flipped: false,
        clicks: ["h2", "g3"],
        want: ["h2g3"],
        key: "iceage",
      },
      {
        name: "6x6: a click on the knight on b1, then on c3",
        fen: "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
        files: 6,
        ranks: 6,
        legal: ["b1c3", "b1a3", "a2a3"],
        flipped: false,
        clicks: ["b1", "c3"],
        want: ["b1c3"],
      },
      {
        name: "Ambiguous: Black moves White's knight onto the pending f3, then marks d5",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 1 1 f3",
        files: 8,
        ranks: 8,
        legal: ["g1f3>d5=d7d5", "g1f3>a6", "f2f3>a6", "f2f3>e5=e7e5"],
        flipped: true,
        clicks: ["g1", "f3", "d5"],
        want: ["g1f3>d5=d7d5"],
        key: "ambiguous",
      },
      {
        name: "Ambiguous: a mark off the chosen execution's marks chooses the execution again",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 1 1 f3",
        files: 8,
        ranks: 8,
        legal: ["g1f3>d5=d7d5", "g1f3>a6", "f2f3>a6", "f2f3>e5=e7e5"],
        flipped: true,
        clicks: ["g1", "f3", "e5", "f2", "f3", "e5"],
        want: ["f2f3>e5=e7e5"],
        key: "ambiguous",
      },
      {
        name: "Ambiguous: White's first turn is a mark alone, a click on e4",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 -",
        files: 8,
        ranks: 8,
        legal: [">a3", ">e4=e2e4", ">f3"],
        flipped: false,
        clicks: ["e4"],
        want: [">e4=e2e4"],
        key: "ambiguous",
      },
      {
        name: "Ambiguous: an execution that takes a king is the whole turn",
        fen: "k3r3/8/8/8/8/8/8/r3K3 w - - 0 1 e1",
        files: 8,
        ranks: 8,
        legal: ["a1e1", "e8e1"],
        flipped: false,
        clicks: ["a1", "e1"],
        want: ["a1e1"],
        key: "ambiguous",
      },
      {
        name: "Ambiguous: White promotes Black's pawn to a knight, then marks",
        fen: "7k/8/8/8/8/8/p7/7K w - - 0 1 a1",
        files: 8,
        ranks: 8,
        legal: ["a2a1q>g1", "a2a1r>g1", "a2a1b>g1", "a2a1n>g1", "a2a1n>h2=h1h2", "a2a1q>h2=h1h2"],
        flipped: false,
        clicks: ["a2", "a1"],
        pick: { offered: "qrbn", choose: "n" },
        then: ["h2"],
        want: ["a2a1n>h2=h1h2"],
        key: "ambiguous",
      },
    ];
    for (const s of scenarios) {
      await page.evaluate(
        ([fen, files, ranks, legal, flipped, key]) => {
          (window as unknown as { played: string[] }).played = window.mountInput(
            fen,
            files,
            ranks,
            legal,
            flipped,
            key,
          );
        },
        [s.fen, s.files, s.ranks, s.legal, s.flipped, s.key ?? "grand"] as const,
      );
      for (const sq of s.clicks) await click(page, sq);
      if (s.pick) {
        // The picker offers the legal moves' pieces in the game's order; pick one.
        const offered = await page
          .locator("#promotion button[data-promotion]")
          .evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.promotion || "-"));
        if (offered.join("") !== s.pick.offered)
          failures.push(`${s.name}: picker offered ${offered.join("")}, want ${s.pick.offered}`);
        await page.locator(`#promotion button[data-promotion="${s.pick.choose}"]`).click();
      }
      for (const sq of s.then ?? []) await click(page, sq);
      const got = await played(page);
      const ok = JSON.stringify(got) === JSON.stringify(s.want);
      console.log(`${ok ? "ok  " : "FAIL"} ${s.name}`);
      if (!ok) failures.push(`${s.name}: played ${JSON.stringify(got)}, want ${JSON.stringify(s.want)}`);
    }
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.error(failures.join("\n"));
    process.exit(1);
  }
  console.log("unit tests passed");
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
