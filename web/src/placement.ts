// A secret setup's placement built by hand on the page (Screen and Crazy Screen Chess): the
// seat's pieces on its own half of a board kept by the page, the tray of those not placed yet,
// the four FEN rows the server takes, and the placements and moves the player may make on it,
// written as drops (`N@c3`) and moves (`c3d4`) so the board's input (input.ts) picks them as it
// picks any legal move. Nothing here judges the game's rules: the server does; the notes only
// say what it will refuse, and no square of the own half is ever kept from the player.

import { pieceName } from "./board.js";
import { type Board, type Pocket, isWhite, parseFen } from "./chess.js";
import { Color, type MoveNotation, MoveNotationSchema } from "./gen/chessd/v1/chessd_pb.js";
import { STANDARD } from "./geometry.js";
import { create } from "@bufbuild/protobuf";

/** The sixteen pieces every seat places, by lower-case letter, in the tray's order. */
export const ARMY: Readonly<Pocket> = { k: 1, q: 1, r: 2, b: 2, n: 2, p: 8 };

/** The tray's roles in the order shown. */
export const ARMY_ROLES = "kqrbnp";

/** How many pieces a seat places. */
export const ARMY_SIZE = Object.values(ARMY).reduce((a, b) => a + b, 0);

const geo = STANDARD;

/** The ranks (from 0) of `color`'s half: White's 1 to 4, Black's 5 to 8. */
const halfRanks = (color: Color) => (color === Color.WHITE ? [0, 1, 2, 3] : [4, 5, 6, 7]);

/** The squares of `color`'s half. */
export function halfSquares(color: Color): number[] {
  const files = [...Array(geo.files).keys()];
  return halfRanks(color).flatMap((rank) => files.map((f) => geo.index(f, rank)));
}

const inHalf = (color: Color, sq: number) => halfRanks(color).includes(geo.rankOf(sq));
const mine = (color: Color, piece: string) =>
  piece !== "" && isWhite(piece) === (color === Color.WHITE);

/** An empty board. */
export const emptyBoard = (): Board => new Array<string>(geo.size).fill("");

/** The pieces of `color` not on `board` yet, by role (a role with none left counts 0). */
export function trayOf(board: Board, color: Color): Pocket {
  const tray: Pocket = { ...ARMY };
  for (const piece of board) {
    const role = piece.toLowerCase();
    if (mine(color, piece) && (tray[role] ?? 0) > 0) tray[role] = (tray[role] ?? 0) - 1;
  }
  return tray;
}

/** How many pieces are still in the tray. */
export const leftToPlace = (board: Board, color: Color) =>
  Object.values(trayOf(board, color)).reduce((a, b) => a + b, 0);

/** The four FEN rows of `color`'s half of `board`, top to bottom, as SubmitSetup takes them. */
export function halfRows(board: Board, color: Color): string {
  const rows = [...halfRanks(color)].reverse().map((rank) => {
    let out = "";
    let empty = 0;
    for (let file = 0; file < geo.files; file++) {
      const piece = board[geo.index(file, rank)] ?? "";
      if (!mine(color, piece)) {
        empty++;
        continue;
      }
      if (empty) out += String(empty);
      empty = 0;
      out += piece;
    }
    return empty ? out + String(empty) : out;
  });
  return rows.join("/");
}

/** The board of a placement's four rows on `color`'s half (null when they do not read). */
export function boardOfRows(rows: string, color: Color): Board | null {
  if (rows.split("/").length !== 4) return null;
  const fen = color === Color.WHITE ? `8/8/8/8/${rows}` : `${rows}/8/8/8/8`;
  try {
    const board = parseFen(`${fen} w - - 0 1`).board;
    // A row in the other side's case (or a stray letter) is no placement of this seat.
    return board.every((p, sq) => p === "" || (mine(color, p) && inHalf(color, sq)))
      ? board
      : null;
  } catch {
    return null;
  }
}

/** `board` with a piece of `role` from the tray put on `to`; null where it cannot go. */
export function place(board: Board, color: Color, role: string, to: number): Board | null {
  if (!inHalf(color, to) || board[to] !== "" || (trayOf(board, color)[role] ?? 0) < 1) return null;
  const next = [...board];
  next[to] = color === Color.WHITE ? role.toUpperCase() : role;
  return next;
}

/** `board` with the piece on `from` moved to the empty `to` of the half; null otherwise. */
export function shift(board: Board, color: Color, from: number, to: number): Board | null {
  const piece = board[from] ?? "";
  if (!mine(color, piece) || !inHalf(color, to) || board[to] !== "") return null;
  const next = [...board];
  next[to] = piece;
  next[from] = "";
  return next;
}

/** `board` with the piece on `from` back in the tray; null where the seat has none. */
export function lift(board: Board, color: Color, from: number): Board | null {
  if (!mine(color, board[from] ?? "")) return null;
  const next = [...board];
  next[from] = "";
  return next;
}

const notation = (uci: string) => create(MoveNotationSchema, { uci, san: uci });

/**
 * What the player may do on `board`, as the input picks moves: each role left in the tray onto
 * each empty square of the half (`N@c3`), each placed piece onto each of them (`c3d4`).
 */
export function placements(board: Board, color: Color): MoveNotation[] {
  const empty = halfSquares(color).filter((sq) => board[sq] === "");
  const tray = trayOf(board, color);
  const out: MoveNotation[] = [];
  for (const role of ARMY_ROLES) {
    if ((tray[role] ?? 0) < 1) continue;
    for (const to of empty) out.push(notation(`${role.toUpperCase()}@${geo.name(to)}`));
  }
  for (const from of halfSquares(color)) {
    if (!mine(color, board[from] ?? "")) continue;
    for (const to of empty) out.push(notation(`${geo.name(from)}${geo.name(to)}`));
  }
  return out;
}

/** `board` after `uci`, one of `placements` (null for any other). */
export function applyPlacement(board: Board, color: Color, uci: string): Board | null {
  const drop = /^([A-Z])@([a-h][1-8])$/.exec(uci);
  if (drop?.[1] && drop[2]) return place(board, color, drop[1].toLowerCase(), geo.parse(drop[2]));
  const move = /^([a-h][1-8])([a-h][1-8])$/.exec(uci);
  if (move?.[1] && move[2]) return shift(board, color, geo.parse(move[1]), geo.parse(move[2]));
  return null;
}

/**
 * What Screen Chess will refuse in a full placement (`strict`; Crazy Screen lifts these
 * limits): pawns sharing a file or on the first rank, bishops on one colour. Only said, never
 * enforced: the server is the judge.
 */
export function screenProblems(board: Board, color: Color, strict: boolean): string[] {
  if (!strict) return [];
  const own = halfSquares(color).filter((sq) => mine(color, board[sq] ?? ""));
  const of = (role: string) => own.filter((sq) => (board[sq] ?? "").toLowerCase() === role);
  const problems: string[] = [];
  const files = of("p").map((sq) => geo.fileOf(sq));
  const shared = [...new Set(files.filter((f, i) => files.indexOf(f) !== i))];
  for (const f of shared) problems.push(`two pawns on the ${"abcdefgh"[f]}-file`);
  const first = color === Color.WHITE ? 0 : 7;
  if (of("p").some((sq) => geo.rankOf(sq) === first)) problems.push("a pawn on your first rank");
  const shades = of("b").map((sq) => (geo.fileOf(sq) + geo.rankOf(sq)) % 2);
  if (shades.length === 2 && shades[0] === shades[1])
    problems.push("both bishops on squares of one colour");
  return problems;
}

/** The line beside the tray: what is left to place, or what Screen Chess would refuse. */
export function trayNote(board: Board, color: Color, strict: boolean): string {
  const left = leftToPlace(board, color);
  if (left > 0) return `${left} ${left === 1 ? "piece" : "pieces"} left to place`;
  const problems = screenProblems(board, color, strict);
  if (problems.length) return `All placed, but Screen Chess refuses ${problems.join(", ")}`;
  return "All placed: send it as a draft or make it final";
}

/** What a screen reader hears after `uci` made `board`: "white knight on c3: 15 pieces left…". */
export function placedText(board: Board, color: Color, uci: string, strict: boolean): string {
  const drop = /^[A-Z]@([a-h][1-8])$/.exec(uci);
  const move = /^([a-h][1-8])([a-h][1-8])$/.exec(uci);
  const to = drop?.[1] ?? move?.[2] ?? "";
  const piece = board[geo.parse(to)] ?? "";
  const what = piece ? pieceName(piece) : "nothing";
  const where = move ? `from ${move[1]} to ${to}` : `on ${to}`;
  return `${what} ${where}: ${trayNote(board, color, strict)}`;
}
