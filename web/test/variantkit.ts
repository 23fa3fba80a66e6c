// What the variants' scenarios share: games created and played over the API, and what the page
// shows of a variant read back from its DOM (the last move's squares, the pockets and their
// sentences, the checks given), each compared with what the server says.

import type { Client } from "@connectrpc/connect";
import type { Page } from "playwright-core";

import type { Game, GameService, Pocket, Pockets } from "../src/gen/chessd/v1/chessd_pb.js";
import { fail, fenPieces, shownPieces, waitFor } from "./harness.js";

export type Api = Client<typeof GameService>;

export const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

export interface Created {
  id: string;
  whiteToken: string;
  blackToken: string;
  game: Game;
}

export async function create(api: Api, request: Parameters<Api["createGame"]>[0]): Promise<Created> {
  const r = await api.createGame({ whitePlayer: "wendy", blackPlayer: "bert", ...request });
  const game = r.game ?? fail("no game");
  return { id: game.gameId, whiteToken: r.whiteToken, blackToken: r.blackToken, game };
}

export async function serverGame(api: Api, id: string): Promise<Game> {
  return (await api.getGame({ gameId: id })).game ?? fail("no game");
}

/** Plays `sans` over the API from the side to move on; returns the FEN after each. */
export async function playApi(api: Api, g: Created, sans: string[]): Promise<string[]> {
  const fens: string[] = [];
  for (const san of sans) {
    const game = await serverGame(api, g.id);
    const token = game.fen.split(" ")[1] === "w" ? g.whiteToken : g.blackToken;
    const r = await api.submitMove({ gameId: g.id, move: san }, as(token));
    fens.push(r.game?.fen ?? fail("no fen"));
  }
  return fens;
}

export const ply = (page: Page) => page.locator("#board").getAttribute("data-ply");

/** The squares the page highlights as the last move, sorted. */
export async function highlighted(page: Page): Promise<string> {
  const squares = await page
    .locator("#board [data-last]")
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-last") ?? ""));
  return squares.sort().join(" ");
}

/** "white p1 n0 b0 r0 q0" as a pocket strip says it. */
function pocketWords(color: string, p: Pocket | undefined): string {
  const c = p ?? { pawns: 0, knights: 0, bishops: 0, rooks: 0, queens: 0 };
  return `${color} p${c.pawns} n${c.knights} b${c.bishops} r${c.rooks} q${c.queens}`;
}

/** Both pockets as the page draws them, as `pocketWords` with their sentences, Black's first. */
async function shownPockets(page: Page): Promise<string> {
  const strips = await page.locator(".pocket:not([hidden])").evaluateAll((nodes) =>
    nodes.map((n) => {
      const el = n as HTMLElement;
      const counts = Array.from(el.querySelectorAll("[data-role]"))
        .map((r) => `${r.getAttribute("data-role")}${r.getAttribute("data-count")}`)
        .join(" ");
      const sentence = el.querySelector("[data-pocket-text]")?.textContent ?? "";
      return `${el.dataset.color} ${counts} (${sentence})`;
    }),
  );
  return strips.sort().join(" | ");
}

function sentence(white: boolean, p: Pocket | undefined): string {
  const c = p ?? { pawns: 0, knights: 0, bishops: 0, rooks: 0, queens: 0 };
  const parts = (
    [
      [c.pawns, "pawn"],
      [c.knights, "knight"],
      [c.bishops, "bishop"],
      [c.rooks, "rook"],
      [c.queens, "queen"],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, name]) => `${n} ${name}${n === 1 ? "" : "s"}`);
  return `${white ? "White" : "Black"}'s pocket: ${parts.join(", ") || "empty"}`;
}

/** Waits until the page's pockets are the server's `pockets`, sentences included. */
export async function expectPockets(page: Page, pockets: Pockets, who: string): Promise<void> {
  const want = [
    `${pocketWords("black", pockets.black)} (${sentence(false, pockets.black)})`,
    `${pocketWords("white", pockets.white)} (${sentence(true, pockets.white)})`,
  ].join(" | ");
  let seen = "";
  try {
    await waitFor(`${who}'s pockets`, async () => {
      seen = await shownPockets(page);
      return seen === want;
    });
  } catch {
    fail(`${who} shows the pockets ${seen}; the server has ${want}`);
  }
}

/** The checks the page shows each side has given: "white 1 (…) black 0 (…)". */
async function shownChecks(page: Page): Promise<string> {
  const parts = await page.locator(".clock .checks").evaluateAll((nodes) =>
    nodes.map((n) => {
      const el = n as HTMLElement;
      return `${el.dataset.checks} ${el.dataset.given} (${el.textContent})`;
    }),
  );
  return parts.sort().join(" ");
}

export async function expectChecks(page: Page, white: number, black: number): Promise<void> {
  const want =
    `black ${black} (Checks ${black}/3Black has given ${black} of 3 checks) ` +
    `white ${white} (Checks ${white}/3White has given ${white} of 3 checks)`;
  let seen = "";
  try {
    await waitFor(`checks ${white} and ${black}`, async () => {
      seen = await shownChecks(page);
      return seen === want;
    });
  } catch {
    fail(`the page shows the checks ${seen}, not ${want}`);
  }
}

/** Steps from the start to the end of the game on the page, each board the server's FEN. */
export async function stepThrough(page: Page, fens: string[], what: string): Promise<void> {
  await page.locator('#moves button[data-ply="1"]').focus();
  await page.keyboard.press("Home");
  for (let p = 0; p < fens.length; p++) {
    if (p > 0) await page.keyboard.press("ArrowRight");
    await waitFor(`${what} at ply ${p}`, async () => (await ply(page)) === String(p));
    const want = fenPieces(fens[p] ?? "");
    let shown = "";
    try {
      await waitFor(`${what}'s position at ply ${p}`, async () => {
        shown = await shownPieces(page);
        return shown === want;
      });
    } catch {
      fail(`${what} at ply ${p}: the page shows ${shown}, the server's FEN is ${fens[p]}`);
    }
    // Only the first move's position, which no call returns, may be the page's own sketch.
    const source = await page.locator("#board").getAttribute("data-source");
    if (source !== null && p !== 1) fail(`${what} at ply ${p} is drawn from a ${source}`);
  }
}
