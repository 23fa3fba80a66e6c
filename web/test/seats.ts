// What the scenarios played from seat links share: a page per seat that records its calls,
// opening a seat link, and moving on the page by clicks, drags, keys or typing.

import { fromBinary } from "@bufbuild/protobuf";
import type { Page } from "playwright-core";

import { type SubmitMoveRequest, SubmitMoveRequestSchema } from "../src/gen/chessd/v1/chessd_pb.js";
import { type Proxy, fail, text, waitFor } from "./harness.js";

/** The calls that act on or read one game: the only ones a seat's token may ride on. */
export const SEAT_METHODS = new Set([
  "SubmitMove",
  "Resign",
  "OfferDraw",
  "RespondToDraw",
  "ClaimDraw",
  "Abort",
  "AddTime",
  "ProposeTakeback",
  "RespondToTakeback",
  "WithdrawTakeback",
  "ClaimVictory",
  "GetGame",
  "WatchGame",
]);

export interface Player {
  page: Page;
  proxy: Proxy;
  name: string;
  tokens: string[];
  /** Every SubmitMove the page sent, decoded. */
  submits: SubmitMoveRequest[];
  /** SubmitMove requests that got no answer (connection refused or cut). */
  failed: number;
  /** Every request URL the page asked for. */
  urls: string[];
  /** [method, authorization header] of every API call. */
  calls: [string, string | undefined][];
}

export function player(page: Page, proxy: Proxy, name: string): Player {
  const p: Player = { page, proxy, name, tokens: [], submits: [], failed: 0, urls: [], calls: [] };
  page.on("request", (r) => {
    p.urls.push(r.url());
    const method = /\/chessd\.v1\.GameService\/(\w+)$/.exec(r.url())?.[1];
    if (!method) return;
    p.calls.push([method, r.headers().authorization]);
    const body = r.postDataBuffer();
    if (method === "SubmitMove" && body && body.length >= 5) {
      p.submits.push(fromBinary(SubmitMoveRequestSchema, body.subarray(5)));
    }
  });
  page.on("requestfailed", (r) => {
    if (r.url().endsWith("/SubmitMove")) p.failed += 1;
  });
  return p;
}

/** Opens `token`'s seat link and waits until the page knows its side. */
export async function sit(
  p: Player,
  id: string,
  token: string,
  side: "White" | "Black",
): Promise<void> {
  p.tokens.push(token);
  await p.page.goto(`${p.proxy.url}/#/game/${id}?seat=${token}`);
  await waitFor(`${p.name} seated as ${side}`, async () =>
    (await text(p.page, "#seat")).startsWith(`You play ${side}`),
  );
  const href = await p.page.evaluate(() => location.href);
  if (href.includes(token)) fail(`${p.name}: the token is still in the address: ${href}`);
  if (!href.endsWith(`#/game/${id}`)) fail(`${p.name}: the address became ${href}`);
  await noTokenInPage(p);
}

/** The token is nowhere in the document: not in its text, not in an attribute. */
export async function noTokenInPage(p: Player): Promise<void> {
  const { html, shown } = await p.page.evaluate(() => ({
    html: document.documentElement.outerHTML,
    shown: document.body.innerText,
  }));
  for (const token of p.tokens) {
    if (html.includes(token) || shown.includes(token))
      fail(`${p.name}: the seat token is in the page's DOM`);
  }
}

export async function centre(p: Player, square: string): Promise<{ x: number; y: number }> {
  // A square, a shogi cell or a xiangqi point.
  const box = await p.page.locator(`#board .sq[data-square="${square}"]`).boundingBox();
  if (!box) fail(`${p.name}: no square ${square} on the board`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

export async function clickSquare(p: Player, square: string): Promise<void> {
  const { x, y } = await centre(p, square);
  await p.page.mouse.click(x, y);
}

/**
 * Waits until the page takes a move from the board: its seat is to move and it has this ply's
 * legal moves (a GetGame after each move event, which a loaded machine may take a while to
 * answer); a click before then picks nothing up.
 */
export async function ready(p: Player): Promise<void> {
  await waitFor(`${p.name} ready to move`, () => p.page.locator("#board.playable").count());
}

export async function clickMove(p: Player, from: string, to: string): Promise<void> {
  await ready(p);
  await clickSquare(p, from);
  await waitFor(`${p.name}: ${to} marked`, () =>
    p.page.locator(`#board [data-target="${to}"]`).count(),
  );
  await clickSquare(p, to);
}

export async function dragMove(p: Player, from: string, to: string): Promise<void> {
  // A page behind another draws a frame a second at most, and each step of a drag waits for one.
  await p.page.bringToFront();
  await ready(p);
  const a = await centre(p, from);
  const b = await centre(p, to);
  await p.page.mouse.move(a.x, a.y);
  await p.page.mouse.down();
  await p.page.mouse.move(b.x, b.y, { steps: 6 });
  await p.page.mouse.up();
}

/** Presses `presses` on the board, once the page takes a move. */
export async function keys(p: Player, ...presses: string[]): Promise<void> {
  await ready(p);
  await p.page.locator("#board").focus();
  for (const k of presses) await p.page.keyboard.press(k);
}

export async function typeMove(p: Player, move: string): Promise<void> {
  await p.page.fill("#move-input", move);
  await p.page.press("#move-input", "Enter");
}

export async function targets(p: Player): Promise<string> {
  const squares = await p.page
    .locator("#board [data-target]")
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-target") ?? ""));
  return squares.sort().join(" ");
}

export async function actions(p: Player): Promise<string> {
  const ids = await p.page
    .locator("#actions button")
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-action") ?? ""));
  return ids.join(" ");
}
