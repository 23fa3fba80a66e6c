// Dark Chess from two seat pages: each page's DOM holds only its own seat's view. After each
// move, played by clicks, every piece the page draws and every square it covers with fog are
// exactly those of the view the server gives that seat (GetGame with its token), the page's
// whole HTML never holds the opponent's move text, and its move list shows the opponent's
// moves as `?`.

import type { Page } from "playwright-core";

import { UNSEEN, parseFen } from "../src/chess.js";
import { boardShot, fail, waitFor } from "./harness.js";
import { type Player, clickMove, ready, sit } from "./seats.js";
import { type Api, as, create, serverGame } from "./variantkit.js";

/** "e2P e4P ..." and "a8 b8 ..." of a view's FEN: the pieces drawn and the squares fogged. */
function view(fen: string): { pieces: string; fog: string } {
  const board = parseFen(fen).board;
  const name = (i: number) => `${"abcdefgh"[i % 8]}${Math.floor(i / 8) + 1}`;
  const pieces = board.flatMap((p, i) => (p && p !== UNSEEN ? [`${name(i)}${p}`] : []));
  const fog = board.flatMap((p, i) => (p === UNSEEN ? [name(i)] : []));
  return { pieces: pieces.sort().join(" "), fog: fog.sort().join(" ") };
}

async function drawn(page: Page): Promise<{ pieces: string; fog: string }> {
  const pieces = await page
    .locator("#board .piece")
    .evaluateAll((nodes) =>
      nodes.map((n) => `${n.getAttribute("data-square")}${n.getAttribute("data-piece")}`),
    );
  const fog = await page
    .locator("#board [data-fog]")
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-fog") ?? ""));
  return { pieces: pieces.sort().join(" "), fog: fog.sort().join(" ") };
}

/** Waits until `p` draws its seat's view at `plies`, then checks what its DOM must not hold. */
async function seesOnlyItsView(
  api: Api,
  id: string,
  p: Player,
  token: string,
  plies: number,
  hidden: string[],
): Promise<void> {
  const g = await waitFor(`the server at ply ${plies}`, async () => {
    const game = (await api.getGame({ gameId: id }, as(token))).game ?? fail("no game");
    return game.ply === plies && game;
  });
  if (!g.fen.includes(UNSEEN)) fail(`${p.name}: the server sent the whole board ${g.fen}`);
  const want = view(g.fen);
  let seen = { pieces: "", fog: "" };
  await waitFor(`${p.name}'s view at ply ${plies}`, async () => {
    seen = await drawn(p.page);
    return (
      seen.pieces === want.pieces &&
      seen.fog === want.fog &&
      (await p.page.locator("#board").getAttribute("data-ply")) === String(plies)
    );
  }).catch(() =>
    fail(`${p.name} draws ${JSON.stringify(seen)}; its view is ${JSON.stringify(want)} (${g.fen})`),
  );
  const html = await p.page.content();
  for (const uci of hidden) {
    if (html.includes(uci)) fail(`${p.name}'s page holds the opponent's move ${uci}`);
  }
}

export async function dark(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "dark" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await seesOnlyItsView(api, g.id, w, g.whiteToken, 0, []);
  await seesOnlyItsView(api, g.id, b, g.blackToken, 0, []);
  await clickMove(w, "e2", "e4");
  await seesOnlyItsView(api, g.id, w, g.whiteToken, 1, []);
  await seesOnlyItsView(api, g.id, b, g.blackToken, 1, ["e2e4"]);
  await ready(b);
  await clickMove(b, "d7", "d5");
  await seesOnlyItsView(api, g.id, b, g.blackToken, 2, ["e2e4"]);
  await seesOnlyItsView(api, g.id, w, g.whiteToken, 2, ["d7d5"]);
  // White's pawn now sees d5 (its forward diagonal): the capture is offered, and taken.
  await clickMove(w, "e4", "d5");
  await seesOnlyItsView(api, g.id, w, g.whiteToken, 3, ["d7d5"]);
  await seesOnlyItsView(api, g.id, b, g.blackToken, 3, ["e2e4", "e4d5"]);
  const list = await b.page.locator("#moves").innerText();
  if (!list.includes("?")) fail(`Black's move list shows White's moves: ${list}`);
  const spectator = await serverGame(api, g.id);
  if (spectator.moves.some((m) => m.uci !== "?") || /[a-zA-Z]/.test(spectator.fen.split(" ")[0] ?? ""))
    fail(`a spectator is shown ${spectator.fen}, ${spectator.moves.map((m) => m.uci).join(" ")}`);
  await boardShot(b.page, artifacts, "dark");
  return "Dark Chess: each page draws only its seat's view, e4 d5 exd5 by clicks";
}
