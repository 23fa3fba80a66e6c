// The variants' scenarios. Watched: a Three-check game (the counters after each check, the
// third check's result, the counters again at an earlier ply of the game opened afresh), King
// of the Hill's end, an Atomic capture whose explosion is on the board live and when the game
// is stepped through from a snapshot, and Antichess's and Horde's ends in words. Played from
// seat links: a Crazyhouse game with captures filling the pockets and four drops through the
// page (dragged, typed, clicked, keyboard), a Chess960 game from start 300 (named in the title)
// castled on both sides through the page (the king onto its landing square, the king onto its
// rook), and an Antichess promotion to king from the picker. Every board, pocket and counter is
// checked against the server's FEN and Game fields.

import path from "node:path";
import type { Client } from "@connectrpc/connect";
import type { BrowserContext, Page } from "playwright-core";

import {
  type Game,
  GameService,
  type Pocket,
  Termination,
  Variant,
} from "../src/gen/chessd/v1/chessd_pb.js";
import {
  expectBoard,
  expectMoves,
  fail,
  fenPieces,
  shownPieces,
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
  sit,
  targets,
  typeMove,
} from "./seats.js";

type Api = Client<typeof GameService>;

const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** Chess960's start 300 (Scharnagl): QBNRKRBN, the king between its rooks on d1 and f1. */
const START_300 = "qbnrkrbn/pppppppp/8/8/8/8/PPPPPPPP/QBNRKRBN w KQkq - 0 1";

interface Created {
  id: string;
  whiteToken: string;
  blackToken: string;
  game: Game;
}

async function create(api: Api, request: Parameters<Api["createGame"]>[0]): Promise<Created> {
  const r = await api.createGame({ whitePlayer: "wendy", blackPlayer: "bert", ...request });
  const game = r.game ?? fail("no game");
  return { id: game.gameId, whiteToken: r.whiteToken, blackToken: r.blackToken, game };
}

async function serverGame(api: Api, id: string): Promise<Game> {
  return (await api.getGame({ gameId: id })).game ?? fail("no game");
}

/** Plays `sans` over the API from the side to move on; returns the FEN after each. */
async function playApi(api: Api, g: Created, sans: string[]): Promise<string[]> {
  const fens: string[] = [];
  for (const san of sans) {
    const game = await serverGame(api, g.id);
    const token = game.fen.split(" ")[1] === "w" ? g.whiteToken : g.blackToken;
    const r = await api.submitMove({ gameId: g.id, move: san }, as(token));
    fens.push(r.game?.fen ?? fail("no fen"));
  }
  return fens;
}

const ply = (page: Page) => page.locator("#board").getAttribute("data-ply");

/** The squares the page highlights as the last move, sorted. */
async function highlighted(page: Page): Promise<string> {
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

/** Waits until the page's pockets are the server's (Game.pockets), sentences included. */
async function expectPockets(page: Page, game: Game, who: string): Promise<void> {
  const want = [
    `${pocketWords("black", game.pockets?.black)} (${sentence(false, game.pockets?.black)})`,
    `${pocketWords("white", game.pockets?.white)} (${sentence(true, game.pockets?.white)})`,
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

async function expectChecks(page: Page, white: number, black: number): Promise<void> {
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
async function stepThrough(page: Page, fens: string[], what: string): Promise<void> {
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

async function watched(page: Page, api: Api, base: string, artifacts: string): Promise<string> {
  // --- Three-check: the counters after each check, then the third check ends the game.
  const tc = await create(api, { variant: Variant.THREE_CHECK });
  await page.goto(`${base}/#/game/${tc.id}`);
  await waitFor("the Three-check game", async () => (await text(page, "#connection")) === "Live");
  if (!(await text(page, "#game-title")).endsWith("· Three-check"))
    fail(`the title is ${await text(page, "#game-title")}`);
  await expectChecks(page, 0, 0);
  const tcMoves = "e4 e5 Bc4 Nc6 Bxf7+ Kxf7 Qh5+ g6 Qxg6#".split(" ");
  const tcFens = [tc.game.fen];
  const checksAfter: Record<number, [number, number]> = { 5: [1, 0], 7: [2, 0], 9: [3, 0] };
  for (const [i, san] of tcMoves.entries()) {
    tcFens.push(...(await playApi(api, tc, [san])));
    const counts = checksAfter[i + 1];
    if (counts) {
      await expectMoves(page, tcMoves.slice(0, i + 1));
      await expectChecks(page, ...counts);
    }
  }
  const tcGame = await serverGame(api, tc.id);
  if (tcGame.outcome?.termination !== Termination.THIRD_CHECK || tcGame.checksGiven?.white !== 3)
    fail(`the server ended the Three-check game with ${JSON.stringify(tcGame.outcome)}`);
  await waitFor(
    "the third check's result",
    async () => (await text(page, "#result")) === "1-0 · White wins by giving the third check",
  );
  await page.screenshot({ path: path.join(artifacts, "three-check.png"), fullPage: true });
  // Opened afresh, from a snapshot: the counters at ply 6 are those of its FEN.
  await page.goto(`${base}/#/`);
  await page.goto(`${base}/#/game/${tc.id}`);
  await expectMoves(page, tcMoves);
  await stepThrough(page, tcFens, "the Three-check game");
  await page.locator('#moves button[data-ply="6"]').click();
  await waitFor("ply 6", async () => (await ply(page)) === "6");
  await expectChecks(page, 1, 0);

  // --- King of the Hill: the king walks to d4.
  const koth = await create(api, { variant: Variant.KING_OF_THE_HILL });
  await page.goto(`${base}/#/game/${koth.id}`);
  await waitFor(
    "the King of the Hill game",
    async () => (await text(page, "#connection")) === "Live",
  );
  await playApi(api, koth, "e3 e6 Ke2 Ke7 Kd3 Kd6 Kd4".split(" "));
  const kothGame = await serverGame(api, koth.id);
  if (kothGame.outcome?.termination !== Termination.KING_OF_THE_HILL)
    fail(`the server ended King of the Hill with ${JSON.stringify(kothGame.outcome)}`);
  await waitFor(
    "the hill's result",
    async () =>
      (await text(page, "#result")) === "1-0 · White wins by bringing the king to the centre",
  );
  await expectBoard(page, 7, kothGame.fen, "the King of the Hill page");

  // --- Atomic: 2. exd5 explodes both pawns; the board is the server's, live and afresh.
  const atomic = await create(api, { variant: Variant.ATOMIC });
  await page.goto(`${base}/#/game/${atomic.id}`);
  await waitFor("the Atomic game", async () => (await text(page, "#connection")) === "Live");
  const atomicFens = [atomic.game.fen, ...(await playApi(api, atomic, ["e4", "d5", "exd5"]))];
  await expectBoard(page, 3, atomicFens[3] ?? "", "the Atomic page");
  if (await page.locator('#board .piece[data-square="d5"]').count())
    fail("the pawn that captured on d5 is still drawn: the explosion is missing");
  // 2... Qxd2 takes the pawn beside White's king, which goes up with it.
  atomicFens.push(...(await playApi(api, atomic, ["Qxd2"])));
  await expectBoard(page, 4, atomicFens[4] ?? "", "the Atomic page");
  const atomicGame = await serverGame(api, atomic.id);
  if (atomicGame.outcome?.termination !== Termination.KING_EXPLODED)
    fail(`the server ended the Atomic game with ${JSON.stringify(atomicGame.outcome)}`);
  await waitFor(
    "the explosion's result",
    async () => (await text(page, "#result")) === "0-1 · Black wins by blowing up the king",
  );
  await page.goto(`${base}/#/`);
  await page.goto(`${base}/#/game/${atomic.id}`);
  await expectMoves(
    page,
    atomicGame.moves.map((m) => m.san),
  );
  await stepThrough(page, atomicFens, "the Atomic game");
  await page.screenshot({ path: path.join(artifacts, "atomic.png"), fullPage: true });

  // --- The other variants' ends, each from a position one capture away from it.
  for (const [variant, startFen, uci, termination, line] of [
    [
      Variant.ANTICHESS,
      "8/8/8/8/8/8/1p6/2R5 b - - 0 1",
      "b2c1q",
      Termination.ALL_PIECES_LOST,
      "1-0 · White wins by losing every piece",
    ],
    [
      Variant.HORDE,
      "4k3/8/8/8/8/8/1q6/P7 b - - 0 1",
      "b2a1",
      Termination.HORDE_DESTROYED,
      "0-1 · Black wins by capturing the whole horde",
    ],
  ] as const) {
    const g = await create(api, { variant, startFen });
    await page.goto(`${base}/#/game/${g.id}`);
    await waitFor(`the ${line} game`, async () => (await text(page, "#connection")) === "Live");
    await playApi(api, g, [uci]);
    const end = await serverGame(api, g.id);
    if (end.outcome?.termination !== termination)
      fail(`the server ended the game from ${startFen} with ${JSON.stringify(end.outcome)}`);
    await waitFor(`the result "${line}"`, async () => (await text(page, "#result")) === line);
    await expectBoard(page, 1, end.fen, `the page of ${startFen}`);
  }
  return (
    `Three-check ${tcMoves.length} plies, King of the Hill, Atomic to the explosion, ` +
    "Antichess's and Horde's ends"
  );
}

/** Both boards and both pocket strips are the server's, at the server's ply. */
async function synced(api: Api, id: string, players: Player[], plies: number): Promise<Game> {
  const g = await waitFor(`the server at ply ${plies}`, async () => {
    const game = await serverGame(api, id);
    if (game.ply > plies) fail(`the server is at ply ${game.ply}, the script at ${plies}`);
    return game.ply === plies && game;
  });
  for (const p of players) {
    await expectBoard(p.page, g.ply, g.fen, p.name);
    if (g.pockets) await expectPockets(p.page, g, p.name);
  }
  return g;
}

async function crazyhouse(api: Api, w: Player, b: Player, artifacts: string): Promise<string> {
  const zh = await create(api, { variant: Variant.CRAZYHOUSE });
  await sit(w, zh.id, zh.whiteToken, "White");
  await sit(b, zh.id, zh.blackToken, "Black");
  if (!(await text(w.page, "#game-title")).endsWith("· Crazyhouse"))
    fail(`the title is ${await text(w.page, "#game-title")}`);
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
  await w.page.locator('#pocket-bottom button[data-role="p"]').click();
  await waitFor("d5 marked", () => w.page.locator('#board [data-target="d5"]').count());
  // docs/crazyhouse.png: both pockets filled, the pawn picked, its drop squares marked.
  await w.page.screenshot({ path: path.join(artifacts, "crazyhouse-pick.png"), fullPage: true });
  await clickSquare(w, "d5");
  plies = 13;
  game = await synced(api, zh.id, [w, b], plies);

  // 7... B@b4 from the keyboard: Enter on the pocket's bishop, then the board's cursor from
  // the king (e8; on Black's turned board right is towards a, up towards rank 1) to b4, and
  // Enter.
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
    ];
    return [seen, ...played].join("; ");
  } finally {
    for (const p of pages) await p.close();
    for (const p of proxies) await p.close();
  }
}
