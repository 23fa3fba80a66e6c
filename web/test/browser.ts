// End-to-end test of the spectator page in a real headless Chromium: starts chessd, plays games
// over gRPC from here (the generated client), and checks that the page shows every move, the
// clocks, draw offers and the result; cuts the page's stream mid-game and checks it resumes
// from its last seq without missing a move; steps through finished games (positions checked
// against the server's FEN at every ply); renders a Racing Kings race. Saves
// screenshots to web/test-artifacts/.
//
// Usage (web/test/run.sh bundles and runs it): node browser.mjs <path-to-chessd>

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { type Page, chromium } from "playwright-core";

import { FILES, parseFen } from "../src/chess.js";
import {
  type CreateGameResponse,
  GameService,
  GameStatus,
  Variant,
  WatchGameRequestSchema,
} from "../src/gen/chessd/v1/chessd_pb.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = path.resolve(process.env.ARTIFACTS ?? "test-artifacts");
/** How long any one expectation may take before the test fails (not a speed assertion). */
const WAIT_MS = 15_000;

function fail(message: string): never {
  throw new Error(message);
}

/** Starts chessd on a free port and resolves with its address once it listens. */
function startChessd(binary: string): Promise<{ proc: ChildProcess; addr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(binary, ["--listen", "127.0.0.1:0", "--heartbeat", "1s"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, RUST_LOG: "info", NO_COLOR: "1" },
    });
    let log = "";
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const m = /chessd listening addr=(\S+)/.exec(log);
      if (m?.[1]) resolve({ proc, addr: m[1] });
    };
    proc.stdout?.on("data", onData);
    proc.stderr?.on("data", onData);
    proc.on("error", reject);
    proc.on("exit", (code) => reject(new Error(`chessd exited (${code}) before listening:\n${log}`)));
  });
}

/**
 * A TCP proxy between the browser and chessd that the test can cut: `cut()` drops every open
 * connection and refuses new ones until `restore()`.
 */
async function startProxy(target: string) {
  const [host, port] = [target.slice(0, target.lastIndexOf(":")), Number(target.split(":").pop())];
  const open = new Set<net.Socket>();
  let refusing = false;
  let connections = 0;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    connections += 1;
    const upstream = net.connect(port, host);
    open.add(client);
    open.add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", close);
    upstream.on("error", close);
    client.on("close", close);
    upstream.on("close", close);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections: () => connections,
    cut() {
      refusing = true;
      for (const s of open) s.destroy();
      open.clear();
    },
    restore() {
      refusing = false;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) fail(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The SAN of every move button on the page, in order. */
async function pageMoves(page: Page): Promise<string[]> {
  return page.locator("#moves button").allTextContents();
}

async function expectMoves(page: Page, sans: string[]): Promise<void> {
  await waitFor(`moves ${sans.join(" ")}`, async () => {
    const shown = await pageMoves(page);
    if (shown.length > sans.length) fail(`page shows extra moves: ${shown.join(" ")}`);
    return shown.join(" ") === sans.join(" ");
  });
}

async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? "").trim();
}

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
  try {
    const api = createClient(
      GameService,
      // gRPC-Web over Node's fetch: the same transport the page uses, straight to chessd.
      createGrpcWebTransport({ baseUrl: `http://${addr}`, useBinaryFormat: true }),
    );
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

    const page = browser.pages()[0] ?? (await browser.newPage());
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(proxy.url)) foreign.push(r.url());
    });
    // Every WatchGame the page opens: (game id, after_seq), decoded from the gRPC-Web frame.
    const watches: [string, bigint][] = [];
    page.on("request", (r) => {
      const body = r.postDataBuffer();
      if (r.url().endsWith("/chessd.v1.GameService/WatchGame") && body && body.length >= 5) {
        const w = fromBinary(WatchGameRequestSchema, body.subarray(5));
        watches.push([w.gameId, w.afterSeq]);
      }
    });
    page.on("console", (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));

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
    if ((await text(page, '[data-clock="white"]')) !== white0) fail("White's clock ran on Black's turn");
    if (!(await page.locator('.clock.running [data-clock="black"]').isVisible())) {
      fail("Black's clock is not marked running");
    }

    // A draw offer and its refusal appear.
    await play(1);
    await expectMoves(page, played);
    await api.offerDraw({ gameId: id }, as(chess.whiteToken));
    await waitFor("the draw offer", async () => (await text(page, "#draw-offer")) === "White offers a draw");
    await api.respondToDraw({ gameId: id, accept: false }, as(chess.blackToken));
    await waitFor("the refusal", async () => (await text(page, "#draw-offer")) === "Black declined the draw");

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
      fail(`reconnects asked for ${JSON.stringify(resumed.map(([g, s]) => [g, String(s)]))}, expected after_seq ${seenSeq}`);
    }
    if (watches[0]?.[1] !== 0n) fail("the first watch did not start from a snapshot");

    await play(5);
    await expectMoves(page, played);
    await play(6);
    await expectMoves(page, played);
    await waitFor("the result", async () =>
      (await text(page, "#result")) === "1-0 · White wins by checkmate",
    );
    await waitFor("game over", async () => (await text(page, "#connection")) === "Game over");
    if (played.join(" ") !== "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#") fail(`played ${played.join(" ")}`);
    await page.screenshot({ path: path.join(ARTIFACTS, "chess.png"), fullPage: true });

    // Step through the finished game with the keyboard.
    const ply = () => page.locator("#board").getAttribute("data-ply");
    await page.locator('#moves button[data-ply="7"]').focus();
    await page.keyboard.press("Home");
    await waitFor("the start position", async () => (await ply()) === "0");
    if ((await page.locator("#board .piece").count()) !== 32) fail("start position is not 32 pieces");
    await page.keyboard.press("ArrowRight");
    await waitFor("ply 1", async () => (await ply()) === "1");
    if (!(await page.locator('#board [data-square="e4"][data-piece="P"]').count())) fail("no pawn on e4 at ply 1");
    if ((await page.locator("#board .sq.last").count()) !== 2) fail("last move not highlighted");
    const focused = await page.evaluate(() => document.activeElement?.getAttribute("data-ply"));
    if (focused !== "1") fail(`focus is on ply ${focused}, not 1`);
    await page.keyboard.press("End");
    await waitFor("the final position", async () => (await ply()) === "7");
    if (!(await page.locator('#board [data-square="f7"][data-piece="Q"]').count())) fail("no queen on f7");
    if ((await page.locator("#board .check").count()) !== 1) fail("the mated king is not marked");

    // Flip: White's king moves from the bottom row to the top row.
    const kingY = async () =>
      (await page.locator('#board [data-square="e1"]').getAttribute("transform")) ?? "";
    if (!(await kingY()).endsWith(" 700)")) fail(`king at ${await kingY()} before flipping`);
    await page.click("#flip");
    await waitFor("the flipped board", async () => (await kingY()).endsWith(" 0)"));
    await page.click("#flip");

    // Phone width: the board still fits.
    await page.setViewportSize({ width: 375, height: 740 });
    const box = await page.locator("#board svg").boundingBox();
    if (!box || box.width > 375) fail(`board is ${box?.width}px wide at phone width`);
    await page.screenshot({ path: path.join(ARTIFACTS, "chess-phone.png") });
    await page.setViewportSize({ width: 1000, height: 800 });

    // --- A finished game opened afresh: the page rebuilds every position from the snapshot's
    // moves. Stepping through it must match the server's FEN at each ply, through en passant,
    // promotion with capture and castling on both sides.
    const special = await api.createGame({ variant: Variant.CHESS, whitePlayer: "eve", blackPlayer: "dan" });
    const specialId = special.game?.gameId ?? fail("no game id");
    const fens = [special.game?.fen ?? fail("no fen")];
    const specialMoves = "e4 a6 e5 d5 exd6 e6 dxc7 Qd7 cxb8=Q Rxb8 Nf3 Bd6 Be2 Nf6 O-O O-O".split(" ");
    for (const [i, san] of specialMoves.entries()) {
      const r = await api.submitMove(
        { gameId: specialId, move: san },
        as(i % 2 === 0 ? special.whiteToken : special.blackToken),
      );
      fens.push(r.game?.fen ?? fail("no fen"));
    }
    await api.resign({ gameId: specialId }, as(special.whiteToken));
    await page.goto(`${proxy.url}/#/game/${specialId}`);
    await waitFor("the resignation", async () =>
      (await text(page, "#result")) === "0-1 · Black wins by resignation",
    );
    await expectMoves(page, specialMoves);
    await page.locator('#moves button[data-ply="1"]').focus();
    await page.keyboard.press("Home");
    for (let p = 0; p <= specialMoves.length; p++) {
      if (p > 0) await page.keyboard.press("ArrowRight");
      await waitFor(`ply ${p}`, async () => (await ply()) === String(p));
      const expected = parseFen(fens[p] ?? "")
        .map((piece, i) => (piece ? `${FILES[i % 8]}${Math.floor(i / 8) + 1}${piece}` : ""))
        .filter(Boolean)
        .sort()
        .join(" ");
      const shown = (
        await page
          .locator("#board .piece")
          .evaluateAll((nodes) =>
            nodes.map((n) => `${n.getAttribute("data-square")}${n.getAttribute("data-piece")}`),
          )
      )
        .sort()
        .join(" ");
      if (shown !== expected) fail(`ply ${p}: page shows ${shown}, server says ${fens[p]}`);
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
    if ((await page.locator("#board .piece").count()) !== 16) fail("Racing Kings start is not 16 pieces");
    for (const [sq, piece] of [["h2", "K"], ["a2", "k"], ["a1", "q"], ["h1", "Q"], ["e2", "N"]]) {
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
    await waitFor("the race result", async () => / by the race to rank 8$/.test(await text(page, "#result")));
    await page.screenshot({ path: path.join(ARTIFACTS, "racing-kings.png"), fullPage: true });

    // The list shows both games as finished.
    await page.goto(`${proxy.url}/`);
    await page.selectOption("#variant-filter", "0");
    await waitFor("the finished games in the recent list", async () =>
      (await page.locator(`#recent-games li[data-game-id="${id}"], #recent-games li[data-game-id="${rkId}"], #recent-games li[data-game-id="${specialId}"]`).count()) === 3,
    );

    await page.screenshot({ path: path.join(ARTIFACTS, "games.png"), fullPage: true });

    if (foreign.length) fail(`the page requested other origins: ${foreign.join(", ")}`);
    if (problems.length) fail(`page problems:\n${problems.join("\n")}`);
    console.log(
      `browser test passed: chess ${played.length} plies (stream cut and resumed), ` +
        `${specialMoves.length} plies stepped through from a snapshot, ` +
        `Racing Kings ${rkPlayed.length} plies; screenshots in ${ARTIFACTS}`,
    );
  } finally {
    await browser.close();
    proc.kill("SIGTERM");
    await proxy.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
