// Dark Chess from two seat pages: each page's DOM holds only its own seat's view. After each
// move, played by clicks, every piece the page draws and every square it covers with fog are
// exactly those of the view the server gives that seat (GetGame with its token), the page's
// whole HTML never holds the opponent's move text, and its move list shows the opponent's
// moves as `?`. The game goes on to its end by clicks, Black's king walking onto the diagonal
// of White's queen, which takes it; once over, the server sends each seat the whole board and
// both pages draw it without fog.

import type { Page } from "playwright-core";

import { UNSEEN, parseFen } from "../src/chess.js";
import { boardShot, fail, text, waitFor } from "./harness.js";
import { expectEnded } from "./ending.js";
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
  // 3... Kd7 4. Qg4 a6 5. Qxd7: a king may walk into an attack it cannot see, and is taken.
  await clickMove(b, "e8", "d7");
  await seesOnlyItsView(api, g.id, b, g.blackToken, 4, ["e4d5"]);
  await seesOnlyItsView(api, g.id, w, g.whiteToken, 4, ["e8d7"]);
  await clickMove(w, "d1", "g4");
  await seesOnlyItsView(api, g.id, w, g.whiteToken, 5, ["e8d7"]);
  await seesOnlyItsView(api, g.id, b, g.blackToken, 5, ["d1g4"]);
  await clickMove(b, "a7", "a6");
  await seesOnlyItsView(api, g.id, b, g.blackToken, 6, ["d1g4"]);
  await seesOnlyItsView(api, g.id, w, g.whiteToken, 6, ["e8d7", "a7a6"]);
  await clickMove(w, "g4", "d7");
  await expectEnded(api, g.id, "1-0 · White wins by capturing the king", [
    [w, "you won"],
    [b, "you lost"],
  ]);
  await seesWholeBoard(api, g.id, w, g.whiteToken, 7);
  await seesWholeBoard(api, g.id, b, g.blackToken, 7);
  await delayedView(api, w);
  return (
    "Dark Chess: each page draws only its seat's view, e4 d5 exd5 Kd7 Qg4 a6 by clicks, " +
    "to its end by Qxd7 taking the king, then the whole board on both pages; " +
    "a spectator's page two plies behind"
  );
}

/** Once the game is over the seat is sent the whole board: `p` draws all of it, with no fog. */
async function seesWholeBoard(
  api: Api,
  id: string,
  p: Player,
  token: string,
  plies: number,
): Promise<void> {
  const g = (await api.getGame({ gameId: id }, as(token))).game ?? fail("no game");
  if (g.ply !== plies || g.fen.includes(UNSEEN))
    fail(`${p.name}: the finished game is sent at ply ${g.ply} as ${g.fen}`);
  const want = view(g.fen);
  let seen = { pieces: "", fog: "" };
  await waitFor(`${p.name}'s whole board at ply ${plies}`, async () => {
    seen = await drawn(p.page);
    return (
      seen.pieces === want.pieces &&
      seen.fog === "" &&
      (await p.page.locator("#board").getAttribute("data-ply")) === String(plies)
    );
  }).catch(() => fail(`${p.name} draws ${JSON.stringify(seen)} once over, not the whole ${g.fen}`));
}

/**
 * A delayed public view: a spectator's page (on White's browser, which the next scenario seats
 * again) shows the whole game two plies behind it, through the stream's skipped seqs.
 */
async function delayedView(api: Api, p: Player): Promise<void> {
  const d = await create(api, { variantKey: "dark", publicDelayPlies: 2 });
  await p.page.goto(`${p.proxy.url}/#/game/${d.id}`);
  await waitFor("the spectator's note of the delay", async () =>
    (await text(p.page, "#seat")).includes("shown 2 plies behind the game"),
  );
  const moves: [string, string][] = [
    ["e2e4", d.whiteToken],
    ["d7d5", d.blackToken],
    ["e4d5", d.whiteToken],
  ];
  for (const [uci, token] of moves) await api.submitMove({ gameId: d.id, move: uci }, as(token));
  const shown = await serverGame(api, d.id);
  if (shown.ply !== 1 || shown.fen.includes(UNSEEN))
    fail(`a delayed spectator is shown ply ${shown.ply}: ${shown.fen}`);
  const want = view(shown.fen);
  let seen = { pieces: "", fog: "" };
  await waitFor("the spectator's board two plies behind", async () => {
    seen = await drawn(p.page);
    return (
      seen.pieces === want.pieces &&
      seen.fog === "" &&
      (await p.page.locator("#board").getAttribute("data-ply")) === "1"
    );
  }).catch(() => fail(`the delayed spectator draws ${JSON.stringify(seen)}, not ${shown.fen}`));
  const html = await p.page.content();
  for (const uci of ["d7d5", "e4d5"])
    if (html.includes(uci)) fail(`the delayed spectator's page holds the later move ${uci}`);
}
