// The variants played from seat links, after those watched (watchvariants.ts): a Crazyhouse
// game with captures filling the pockets and four drops through the page (dragged, typed,
// clicked, keyboard), a Chess960 game from start 300 (named in the title) castled on both sides
// through the page (the king onto its landing square, the king onto its rook), and an
// Antichess promotion to king from the picker; then the wide family's (wide.ts), and xiangqi
// and shogi (eastern.ts). Every board and pocket is checked against the server's FEN and Game
// fields.

import path from "node:path";
import type { BrowserContext } from "playwright-core";

import { type Game, Variant } from "../src/gen/chessd/v1/chessd_pb.js";
import {
  boardShot,
  expectBoard,
  fail,
  placeholder,
  startProxy,
  text,
  waitFor,
} from "./harness.js";
import {
  type Player,
  centre,
  clickSquare,
  dragMove,
  player,
  ready,
  sit,
  targets,
  typeMove,
} from "./seats.js";
import {
  type Api,
  create,
  expectPockets,
  highlighted,
  playApi,
  serverGame,
} from "./variantkit.js";
import { watched } from "./watchvariants.js";
import { easternScenarios } from "./eastern.js";
import { wideScenarios } from "./wide.js";

/** Chess960's start 300 (Scharnagl): QBNRKRBN, the king between its rooks on d1 and f1. */
const START_300 = "qbnrkrbn/pppppppp/8/8/8/8/PPPPPPPP/QBNRKRBN w KQkq - 0 1";


/** Both boards and both pocket strips are the server's, at the server's ply. */
async function synced(api: Api, id: string, players: Player[], plies: number): Promise<Game> {
  const g = await waitFor(`the server at ply ${plies}`, async () => {
    const game = await serverGame(api, id);
    if (game.ply > plies) fail(`the server is at ply ${game.ply}, the script at ${plies}`);
    return game.ply === plies && game;
  });
  for (const p of players) {
    await expectBoard(p.page, g.ply, g.fen, p.name);
    if (g.pockets) await expectPockets(p.page, g.pockets, p.name);
  }
  return g;
}

async function crazyhouse(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const zh = await create(api, { variant: Variant.CRAZYHOUSE });
  await sit(w, zh.id, zh.whiteToken, "White");
  await sit(b, zh.id, zh.blackToken, "Black");
  if (!(await text(w.page, "#game-title")).endsWith("· Crazyhouse"))
    fail(`the title is ${await text(w.page, "#game-title")}`);
  // The move box offers a drop here, and fits it.
  const hint = await placeholder(w.page);
  if (!hint.text.includes("@")) fail(`the move box offers no drop: ${hint.text}`);
  if (hint.width > hint.room)
    fail(`the move box cuts "${hint.text}" (${hint.width}px in ${hint.room}px)`);
  // Each side's pocket is on its side of the board: White's below on White's page.
  for (const [p, below] of [
    [w, "white"],
    [b, "black"],
  ] as const) {
    const bottom = await p.page.locator("#pocket-bottom").getAttribute("data-color");
    if (bottom !== below) fail(`${p.name} shows ${bottom}'s pocket below the board`);
  }
  let plies = 0;
  let game = await synced(api, zh.id, [w, b], plies);

  // 1. e4 d5 2. exd5: White's pocket gets the pawn; 2... Qxd5: Black's gets one.
  await playApi(api, zh, ["e4", "d5", "exd5"]);
  plies = 3;
  game = await synced(api, zh.id, [w, b], plies);
  if (game.pockets?.white?.pawns !== 1) fail("the server's White pocket has no pawn");
  await playApi(api, zh, ["Qxd5", "Nc3", "Qa5"]);
  plies = 6;
  game = await synced(api, zh.id, [w, b], plies);

  // Black, not to move, cannot pick from its pocket.
  if (!(await b.page.locator('#pocket-bottom button[data-role="p"]').isDisabled()))
    fail("Black's pocket pawn can be picked on White's turn");

  // 4. P@e4, dragged from White's pocket: the targets are the server's pawn drops.
  const pawn = w.page.locator('#pocket-bottom button[data-role="p"]');
  await waitFor("White's pocket pawn playable", async () => !(await pawn.isDisabled()));
  await w.page.bringToFront();
  await pawn.scrollIntoViewIfNeeded();
  const box = (await pawn.boundingBox()) ?? fail("no pocket pawn");
  const e4 = await centre(w, "e4");
  await w.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await w.page.mouse.down();
  const drops = game.legalMoves
    .filter((m) => m.uci.startsWith("P@"))
    .map((m) => m.uci.slice(2))
    .sort()
    .join(" ");
  await waitFor("the pawn's drop squares", async () => (await targets(w)) === drops);
  await w.page.mouse.move(e4.x, e4.y, { steps: 8 });
  await w.page.mouse.up();
  plies = 7;
  game = await synced(api, zh.id, [w, b], plies);
  if (game.moves[6]?.uci !== "P@e4") fail(`the server played ${game.moves[6]?.uci}`);
  for (const p of [w, b]) {
    if ((await highlighted(p.page)) !== "e4")
      fail(`${p.name} highlights ${await highlighted(p.page)} for the drop, not e4 alone`);
  }
  await w.page.screenshot({ path: path.join(artifacts, "crazyhouse-drop.png") });

  // 4... P@e6, typed with a lower-case piece letter.
  await typeMove(b, "p@e6");
  plies = 8;
  game = await synced(api, zh.id, [w, b], plies);
  if (game.moves[7]?.san !== "P@e6") fail(`the server played ${game.moves[7]?.san}`);

  // 5. Bb5+ c6 6. Bxc6+ Nxc6: a pawn for White's pocket, a bishop for Black's.
  await playApi(api, zh, ["Bb5+", "c6", "Bxc6+", "Nxc6"]);
  plies = 12;
  game = await synced(api, zh.id, [w, b], plies);

  // 7. P@d5: the pocket pawn clicked, then its square.
  await ready(w);
  await w.page.locator('#pocket-bottom button[data-role="p"]').click();
  await waitFor("d5 marked", () => w.page.locator('#board [data-target="d5"]').count());
  // docs/crazyhouse.png: both pockets filled, the pawn picked, its drop squares marked.
  await w.page.screenshot({ path: path.join(artifacts, "crazyhouse-pick.png"), fullPage: true });
  await boardShot(w.page, artifacts, "crazyhouse");
  await clickSquare(w, "d5");
  plies = 13;
  game = await synced(api, zh.id, [w, b], plies);

  // 7... B@b4 from the keyboard: Enter on the pocket's bishop, then the board's cursor from
  // the king (e8; on Black's turned board right is towards a, up towards rank 1) to b4, and
  // Enter.
  await ready(b);
  await b.page.locator('#pocket-bottom button[data-role="b"]').focus();
  await b.page.keyboard.press("Enter");
  await waitFor("the bishop's targets", async () => (await targets(b)).includes("b4"));
  for (const k of ["ArrowRight", "ArrowRight", "ArrowRight"]) await b.page.keyboard.press(k);
  for (const k of ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowUp"]) await b.page.keyboard.press(k);
  await b.page.keyboard.press("Enter");
  plies = 14;
  game = await synced(api, zh.id, [w, b], plies);
  const sans = game.moves.map((m) => m.san).join(" ");
  if (sans !== "e4 d5 exd5 Qxd5 Nc3 Qa5 P@e4 P@e6 Bb5+ c6 Bxc6+ Nxc6 P@d5 B@b4")
    fail(`the Crazyhouse game went ${sans}`);
  await b.page.screenshot({ path: path.join(artifacts, "crazyhouse.png"), fullPage: true });
  return "Crazyhouse 14 plies, 4 drops (dragged, typed, clicked, keyboard)";
}

async function chess960(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const g = await create(api, { variant: Variant.CHESS960, chess960Start: 300 });
  if (g.game.startFen !== START_300) fail(`start 300 is ${g.game.startFen}`);
  await sit(w, g.id, g.whiteToken, "White");
  await sit(b, g.id, g.blackToken, "Black");
  const title = await text(w.page, "#game-title");
  if (title !== "wendy – bert · Chess960 · start 300") fail(`the Chess960 title is ${title}`);
  await playApi(api, g, ["h3", "h6", "Bh2", "Bh7"]);
  let game = await synced(api, g.id, [w, b], 4);

  // 5. O-O: the king goes onto its landing square g1 (the rook on f1 stays put). Its targets
  // mark the rook (castling) and g1; the server lists the move as e1f1, king takes rook.
  const castle = game.legalMoves.find((m) => m.san === "O-O") ?? fail("no O-O for White");
  if (castle.uci !== "e1f1") fail(`White's castling is ${castle.uci}`);
  await ready(w);
  await clickSquare(w, "e1");
  await waitFor("the king's targets", async () => (await targets(w)).split(" ").includes("g1"));
  if (!(await w.page.locator('#board .target.castle[data-target="f1"]').count()))
    fail("the rook on f1 is not marked as the king's castling");
  await clickSquare(w, "e1");
  await dragMove(w, "e1", "g1");
  game = await synced(api, g.id, [w, b], 5);
  if (game.moves[4]?.san !== "O-O") fail(`White played ${game.moves[4]?.san}`);
  if (!game.fen.startsWith("qbnrkr1n/pppppppb/7p/8/8/7P/PPPPPPPB/QBNR1RKN "))
    fail(`the server's FEN after O-O is ${game.fen}`);
  for (const p of [w, b]) {
    if ((await highlighted(p.page)) !== "e1 g1")
      fail(`${p.name} highlights ${await highlighted(p.page)} for O-O`);
  }

  // 5... O-O: the king clicked, then its own rook on f8.
  await ready(b);
  await clickSquare(b, "e8");
  await waitFor("the black king's targets", async () =>
    (await targets(b)).split(" ").includes("f8"),
  );
  await clickSquare(b, "f8");
  game = await synced(api, g.id, [w, b], 6);
  if (game.moves[5]?.san !== "O-O" || game.moves[5]?.uci !== "e8f8")
    fail(`Black played ${game.moves[5]?.uci} ${game.moves[5]?.san}`);
  if (!game.fen.startsWith("qbnr1rkn/pppppppb/7p/8/8/7P/PPPPPPPB/QBNR1RKN "))
    fail(`the server's FEN after O-O is ${game.fen}`);
  await w.page.screenshot({ path: path.join(artifacts, "chess960.png"), fullPage: true });
  return "Chess960 from start 300, castled onto the landing square and onto the rook";
}

async function antichess(api: Api, w: Player): Promise<string> {
  const g = await create(api, {
    variant: Variant.ANTICHESS,
    startFen: "8/P7/8/8/8/8/8/7k w - - 0 1",
  });
  await sit(w, g.id, g.whiteToken, "White");
  await synced(api, g.id, [w], 0);
  await dragMove(w, "a7", "a8");
  const choices = await waitFor("the picker", async () => {
    const c = await w.page
      .locator("#promotion [data-promotion]")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-promotion")).join(""));
    return c || null;
  });
  if (choices !== "qrbnk") fail(`the Antichess picker offers ${choices}`);
  await w.page.click('#promotion [data-promotion="k"]');
  const game = await synced(api, g.id, [w], 1);
  if (game.moves[0]?.uci !== "a7a8k") fail(`the server played ${game.moves[0]?.uci}`);
  return "an Antichess promotion to king";
}

export async function variantScenarios(
  context: BrowserContext,
  api: Api,
  addr: string,
  artifacts: string,
): Promise<string> {
  const proxies = [await startProxy(addr), await startProxy(addr)] as const;
  const pages = [await context.newPage(), await context.newPage()] as const;
  try {
    const seen = await watched(pages[0], api, proxies[0].url, artifacts);
    const w = player(pages[0], proxies[0], "White's page");
    const b = player(pages[1], proxies[1], "Black's page");
    const played = [
      await crazyhouse(api, w, b, artifacts),
      await chess960(api, w, b, artifacts),
      await antichess(api, w),
      await wideScenarios(api, w, b, artifacts),
      await easternScenarios(api, w, b, artifacts),
    ];
    return [seen, ...played].join("; ");
  } finally {
    for (const p of pages) await p.close();
    for (const p of proxies) await p.close();
  }
}

