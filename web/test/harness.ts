// What the browser test's scenarios share: chessd on a free port, a cuttable proxy in front
// of it per page, the page's files taken from a web/dist instead of the binary's on request,
// waiting for the page, reading the board the page draws, and the board's screenshot for the
// docs.

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";

import { parseFen, squareName } from "../src/chess.js";

/** How long any one expectation may take before the test fails (not a speed assertion). */
export const WAIT_MS = 15_000;

export function fail(message: string): never {
  throw new Error(message);
}

/** Starts chessd on a free port (with `extra` flags) and resolves with its address once it listens. */
export function startChessd(
  binary: string,
  extra: string[] = [],
): Promise<{ proc: ChildProcess; addr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(binary, ["--listen", "127.0.0.1:0", "--heartbeat", "1s", ...extra], {
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
    proc.on("exit", (code) =>
      reject(new Error(`chessd exited (${code}) before listening:\n${log}`)),
    );
  });
}

/**
 * Serves the page's files from `dist` (a web/dist) instead of the ones chessd embeds, keeping
 * chessd's headers (its Content-Security-Policy): a page built from one tree is tested against
 * a chessd built from another, as when only the page changed and the binary is not rebuilt.
 */
export async function servePageFrom(context: BrowserContext, dist: string): Promise<void> {
  const files: Record<string, string> = {
    "/": "index.html",
    "/app.js": "app.js",
    "/app.css": "app.css",
    "/licenses.txt": "licenses.txt",
    "/favicon.svg": "favicon.svg",
  };
  await context.route(
    (url) => url.hostname === "127.0.0.1" && url.pathname in files,
    async (route) => {
      const file = files[new URL(route.request().url()).pathname] ?? fail("no such file");
      const response = await route.fetch();
      const headers = { ...response.headers() };
      // The body is the file's own bytes: chessd's encoding, length and ETag were its copy's.
      for (const h of ["content-encoding", "content-length", "etag"]) delete headers[h];
      await route.fulfill({ response, headers, body: readFileSync(path.join(dist, file)) });
    },
  );
}

export type Proxy = Awaited<ReturnType<typeof startProxy>>;

/**
 * A TCP proxy between the browser and chessd that the test can cut: `cut()` drops every open
 * connection and refuses new ones until `restore()`. It reads the HTTP/1.1 requests that pass
 * (the browser speaks HTTP/1.1 to a plain-http origin), so `dropAnswers(method, n)` can let
 * the next n calls of a method reach chessd and then cut their answers after the headers: an
 * answer lost on the way back.
 */
export async function startProxy(target: string) {
  const [host, port] = [target.slice(0, target.lastIndexOf(":")), Number(target.split(":").pop())];
  const open = new Set<net.Socket>();
  let refusing = false;
  let connections = 0;
  const dropping = new Map<string, number>();
  let dropped = 0;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    connections += 1;
    const upstream = net.connect(port, host);
    open.add(client);
    open.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    // Requests follow one another on a connection: the one last read is the one answered.
    let pending = Buffer.alloc(0);
    let dropNext = false;
    client.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf("\r\n\r\n");
        if (end < 0) break;
        const head = pending.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) break;
        pending = pending.subarray(end + 4 + length);
        const method = /^POST \/chessd\.v1\.GameService\/(\w+) /.exec(head)?.[1] ?? "";
        const left = dropping.get(method) ?? 0;
        if (left > 0) {
          dropping.set(method, left - 1);
          dropNext = true;
        }
      }
      upstream.write(chunk);
    });
    let answer = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      if (!dropNext) {
        client.write(chunk);
        return;
      }
      // Only the status line and headers get through: a browser may resend a request whose
      // connection closed before any answer, but not one whose answer had begun.
      answer = Buffer.concat([answer, chunk]);
      const end = answer.indexOf("\r\n\r\n");
      if (end < 0) return;
      dropped += 1;
      client.end(answer.subarray(0, end + 4), close);
    });
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
    /** Answers lost so far by `dropAnswers`. */
    dropped: () => dropped,
    dropAnswers(method: string, n: number) {
      dropping.set(method, n);
    },
    cut() {
      refusing = true;
      for (const s of open) s.destroy();
      open.clear();
    },
    restore() {
      refusing = false;
    },
    /** Stops listening and drops the connections left (the browser keeps idle ones open). */
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of open) s.destroy();
        open.clear();
      }),
  };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      fail(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The SAN of every move button on the page, in order. */
export async function pageMoves(page: Page): Promise<string[]> {
  return page.locator("#moves button").allTextContents();
}

export async function expectMoves(page: Page, sans: string[]): Promise<void> {
  let shown: string[] = [];
  await waitFor(`moves ${sans.join(" ")}`, async () => {
    shown = await pageMoves(page);
    if (shown.length > sans.length) fail(`page shows extra moves: ${shown.join(" ")}`);
    return shown.join(" ") === sans.join(" ");
  }).catch((e: unknown) => fail(`${String(e)} (the page shows: ${shown.join(" ")})`));
}

export async function text(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? "").trim();
}

/** "a1R b1N ..." for a FEN's placement: what `shownPieces` must read. */
export function fenPieces(fen: string): string {
  return parseFen(fen)
    .board.map((piece, i) => (piece ? `${squareName(i)}${piece}` : ""))
    .filter(Boolean)
    .sort()
    .join(" ");
}

/** The pieces the page draws, in `fenPieces`' form. */
export async function shownPieces(page: Page): Promise<string> {
  return (
    await page
      .locator("#board .piece")
      .evaluateAll((nodes) =>
        nodes.map((n) => `${n.getAttribute("data-square")}${n.getAttribute("data-piece")}`),
      )
  )
    .sort()
    .join(" ");
}

/** Waits until the page's board is the server's `fen` at `ply`, with no move of its own pending. */
export async function expectBoard(
  page: Page,
  ply: number,
  fen: string,
  who: string,
): Promise<void> {
  const want = fenPieces(fen);
  let seen = "";
  try {
    await waitFor(`${who}'s board at ply ${ply}`, async () => {
      seen = await shownPieces(page);
      const box = page.locator("#board");
      return (
        seen === want &&
        (await box.getAttribute("data-ply")) === String(ply) &&
        (await box.getAttribute("data-pending")) === null
      );
    });
  } catch {
    fail(`${who}'s page at ply ${ply} shows ${seen}; the server's FEN is ${fen}`);
  }
}

/**
 * The page at the top of the window with the whole board and both clocks in it: what a phone
 * must show, whatever the move list below the board holds.
 */
export async function boardInSight(page: Page, who: string): Promise<void> {
  const scrollY = await page.evaluate(() => window.scrollY);
  if (scrollY !== 0) fail(`${who}: the window is scrolled down ${scrollY}px`);
  const height = page.viewportSize()?.height ?? fail("no viewport");
  for (const selector of ["#clock-top", "#board svg", "#clock-bottom"]) {
    // boundingBox is relative to the viewport.
    const box = await page.locator(selector).boundingBox();
    if (!box || box.y < 0 || box.y + box.height > height)
      fail(`${who}: ${selector} is at ${box?.y}..${box && box.y + box.height}, the window 0..${height}`);
  }
}

/** The move box's placeholder, its width in the box's font, and the room the box has for it. */
export async function placeholder(
  page: Page,
): Promise<{ text: string; width: number; room: number }> {
  return page.locator("#move-input").evaluate((el: HTMLInputElement) => {
    const style = getComputedStyle(el);
    const ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) throw new Error("no canvas context");
    ctx.font = style.font;
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: el.placeholder, width: ctx.measureText(el.placeholder).width, room };
  });
}

/** The width the docs' board screenshots are taken at: a board about 450 px wide. */
const SHOT_WIDTH = 480;

/**
 * Saves `board-<name>.png` in `artifacts`: the board with its clocks and hands, cropped to
 * them, at a narrow window so the file stays small (docs/web.md shows these; web/test/shots.sh
 * copies them to docs/). The window's size is restored afterwards.
 */
export async function boardShot(page: Page, artifacts: string, name: string): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: SHOT_WIDTH, height: 1000 });
  try {
    // Two frames: the layout settles at the new width before the boxes are read.
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const parts = ["#clock-top", "#pocket-top", "#board", "#pocket-bottom", "#clock-bottom"];
    const boxes = [];
    for (const selector of parts) {
      const box = await page.locator(selector).boundingBox();
      if (box && box.width > 0 && box.height > 0) boxes.push(box);
    }
    if (!boxes.some((b) => b.height > 100)) fail(`${name}: no board to photograph`);
    const scroll = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
    const x = Math.floor(Math.min(...boxes.map((b) => b.x)));
    const y = Math.floor(Math.min(...boxes.map((b) => b.y)));
    const right = Math.ceil(Math.max(...boxes.map((b) => b.x + b.width)));
    const bottom = Math.ceil(Math.max(...boxes.map((b) => b.y + b.height)));
    await page.screenshot({
      path: path.join(artifacts, `board-${name}.png`),
      fullPage: true,
      clip: { x: x + scroll.x, y: y + scroll.y, width: right - x, height: bottom - y },
    });
  } finally {
    if (before) await page.setViewportSize(before);
  }
}
