// The wide family's games played from seat links: games created by `variant_key` alone (their
// `Variant` is unspecified), drawn on their own boards with their own pieces and played by
// clicks. A Grand Chess game (10x10: 100 squares, the marshal and cardinal drawn as such, no
// lettered disc) opened with a pawn's double step clicked on the board; a Capablanca game
// (10x8) castled by clicking the king onto i1; a Loop game's captured pawn dropped from the
// hand; a Los Alamos game (6x6) whose pawn takes by clicks. Every board is checked against the
// server's FEN read on the game's own geometry, and each family's board is photographed. The
// Grand game ends by Black's resignation clicked on its page, the Los Alamos game by a mate
// played by clicks (Black's defenders of d5 stepping aside, White's queen landing there); both
// pages show the result and take no further move.

import path from "node:path";
import type { Page } from "playwright-core";

import { NEUTRAL, parseFen } from "../src/chess.js";
import { gameInfo } from "../src/games.js";
import { geometryOf } from "../src/geometry.js";
import type { Game } from "../src/gen/chessd/v1/chessd_pb.js";
import { boardShot, fail, text, waitFor } from "./harness.js";
import { type Player, clickMove, clickSquare, ready, sit } from "./seats.js";
import { expectEnded, resign } from "./ending.js";
import { type Api, create, playApi, serverGame } from "./variantkit.js";

/**
 * "a1R b1N ..." for a FEN on `game`'s board: what the page must draw as pieces. Cheshire Cat's
 * `*` is a vanished square, drawn as a hole rather than a piece (its scenario checks the holes).
 */
function widePieces(game: Game): string {
  const geo = geometryOf(game.geometry);
  const holes = game.variantKey === "cheshirecat";
  return parseFen(game.fen, geo)
    .board.map((piece, i) => (piece && !(holes && piece === NEUTRAL) ? `${geo.name(i)}${piece}` : ""))
    .filter(Boolean)
    .sort()
    .join(" ");
}

async function shown(page: Page): Promise<string> {
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

/** Waits until the server is at `plies` and every page draws its position; returns the game. */
export async function synced(api: Api, id: string, players: Player[], plies: number): Promise<Game> {
  const g = await waitFor(`the server at ply ${plies}`, async () => {
    const game = await serverGame(api, id);
    if (game.ply > plies) fail(`the server is at ply ${game.ply}, the script at ${plies}`);
    return game.ply === plies && game;
  });
  const want = widePieces(g);
  for (const p of players) {
    let seen = "";
    try {
      await waitFor(`${p.name}'s board at ply ${plies}`, async () => {
        seen = await shown(p.page);
        const box = p.page.locator("#board");
        return (
          seen === want &&
          (await box.getAttribute("data-ply")) === String(plies) &&
          (await box.getAttribute("data-pending")) === null
        );
      });
    } catch {
      fail(`${p.name}'s page at ply ${plies} shows ${seen}; the server's FEN is ${g.fen}`);
    }
  }
  return g;
}

/**
 * Plays `ucis` by clicks from ply `from`, each on the page of the side to move (White's at even
 * plies), both boards checked against the server's after each; returns the game after the last.
 */
export async function clickLine(
  api: Api,
  id: string,
  w: Player,
  b: Player,
  from: number,
  ucis: string[],
): Promise<Game> {
  let game: Game | undefined;
  for (const [i, uci] of ucis.entries()) {
    const [, a, z] = /^([a-z]\d+)([a-z]\d+)$/.exec(uci) ?? fail(`not a plain move: ${uci}`);
    await clickMove((from + i) % 2 === 0 ? w : b, a ?? "", z ?? "");
    game = await synced(api, id, [w, b], from + i + 1);
    const played = game.moves[from + i]?.uci;
    if (played !== uci) fail(`the server played ${played}, not ${uci}`);
  }
  return game ?? fail("no move to play");
}

/** The board's size and drawing: every square (or point), every piece by its role, none as a letter. */
export async function expectDrawn(p: Player, key: string, files: number, ranks: number): Promise<void> {
  const board = p.page.locator("#board svg.board");
  const size = [await board.getAttribute("data-files"), await board.getAttribute("data-ranks")];
  if (size.join("x") !== `${files}x${ranks}`) fail(`${p.name}: a ${size.join("x")} board for ${key}`);
  const squares = await p.page.locator("#board .sq[data-square]").count();
  if (squares !== files * ranks) fail(`${p.name}: ${squares} squares for ${key}`);
  if (await p.page.locator("#board .piece text.letter").count())
    fail(`${p.name}: a ${key} piece drawn as a lettered disc`);
  const title = await text(p.page, "#game-title");
  const name = gameInfo(key)?.name ?? fail(`no game ${key}`);
  if (!title.endsWith(`· ${name}`)) fail(`${p.name}: the title is ${title}`);
}

async function grand(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "grand" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await synced(api, g.id, [w, b], 0);
  await expectDrawn(w, "grand", 10, 10);
  const role = (sq: string) =>
    w.page.locator(`#board .piece[data-square="${sq}"]`).getAttribute("data-piece-role");
  if ((await role("f2")) !== "marshal" || (await role("g2")) !== "cardinal")
    fail(`f2 and g2 are drawn as ${await role("f2")} and ${await role("g2")}`);
  const label = (await w.page.locator("#board svg.board").getAttribute("aria-label")) ?? "";
  if (!label.includes("marshal f2")) fail(`the spoken board lacks the marshal: ${label}`);
  // 1. e5: the pawn on e3 clicked, then its double step's square.
  await clickMove(w, "e3", "e5");
  const game = await synced(api, g.id, [w, b], 1);
  if (game.moves[0]?.uci !== "e3e5") fail(`the server played ${game.moves[0]?.uci}`);
  await w.page.screenshot({ path: path.join(artifacts, "grand.png"), fullPage: true });
  await boardShot(w.page, artifacts, "grand");
  await resign(b);
  await expectEnded(api, g.id, "1-0 · White wins by resignation", [
    [w, "you won"],
    [b, "you lost"],
  ]);
  return "Grand Chess (10x10) opened by a click, to its end by Black's resignation";
}

async function capablanca(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, {
    variantKey: "capablanca",
    startFen: "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1",
  });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  await synced(api, g.id, [w, b], 0);
  await expectDrawn(b, "capablanca", 10, 8);
  // O-O: the king clicked onto its landing square, i1; the rook goes to h1.
  await clickMove(w, "f1", "i1");
  const game = await synced(api, g.id, [w, b], 1);
  if (game.moves[0]?.uci !== "f1i1" || game.moves[0]?.san !== "O-O")
    fail(`the server played ${game.moves[0]?.uci} (${game.moves[0]?.san})`);
  await w.page.screenshot({ path: path.join(artifacts, "capablanca.png"), fullPage: true });
  return "Capablanca (10x8) castled by a click";
}

async function losAlamos(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variantKey: "losalamos" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  // 1. c3 d4 2. cxd4: a pawn's one-square step, and a capture clicked.
  await playApi(api, g, ["c3", "d4"]);
  await synced(api, g.id, [w, b], 2);
  await expectDrawn(w, "losalamos", 6, 6);
  await clickMove(w, "c3", "d4");
  const game = await synced(api, g.id, [w, b], 3);
  if (game.moves[2]?.uci !== "c3d4") fail(`the server played ${game.moves[2]?.uci}`);
  await boardShot(w.page, artifacts, "losalamos");
  // 3... Na4 4. Qc4 Qb6 5. Nc3 f4 6. Qd5#: the queen, guarded by the knight, on the one square
  // beside the king its own pieces leave open.
  await clickLine(api, g.id, w, b, 3, ["b6a4", "c1c4", "c6b6", "b1c3", "f5f4", "c4d5"]);
  await expectEnded(api, g.id, "1-0 · White wins by checkmate", [
    [w, "you won"],
    [b, "you lost"],
  ]);
  return "Los Alamos (6x6) captured by clicks, to its end by 6. Qd5# played by clicks";
}

async function loop(api: Api, w: Player, b: Player): Promise<string> {
  const g = await create(api, { variantKey: "loop" });
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  // 1. e4 d5 2. exd5 Qxd5: a pawn in each hand.
  await playApi(api, g, ["e4", "d5", "exd5", "Qxd5"]);
  await synced(api, g.id, [w, b], 4);
  // 3. P@e4: the hand's pawn clicked, then its square.
  await ready(w);
  await w.page.locator('#pocket-bottom button[data-role="p"]').click();
  await waitFor("e4 marked", () => w.page.locator('#board [data-target="e4"]').count());
  await clickSquare(w, "e4");
  const game = await synced(api, g.id, [w, b], 5);
  if (game.moves[4]?.uci !== "P@e4") fail(`the server played ${game.moves[4]?.uci}`);
  return "a Loop drop";
}

export async function wideScenarios(
  api: Api,
  w: Player,
  b: Player,
  artifacts: string,
): Promise<string> {
  return [
    await grand(api, w, b, artifacts),
    await capablanca(api, w, b, artifacts),
    await losAlamos(api, w, b, artifacts),
    await loop(api, w, b),
  ].join("; ");
}
