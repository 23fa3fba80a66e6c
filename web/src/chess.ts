// Positions as the server's FEN gives them, for drawing: the placement (shogi's promoted pieces
// written `+P`), Crazyhouse's pockets and shogi's hands, Three-check's counters, the side to move
// and the half-move clock; and what a UCI move names (its squares, a drop, a castling's king and
// rook). The page applies no rules: every position it draws is a FEN the server sent, except two
// sketches named as such (`sketch`). Every board has its game's geometry (geometry.ts): up to 10
// files and 10 ranks, "10" an empty run. A `*` is a square that belongs to no side (Ice Age's ice
// cube, Cheshire Cat's vanished square: the game says which, games.ts); a `?` is a square the
// viewer does not see (Dark Chess).

import { type Geometry, STANDARD } from "./geometry.js";

/** A piece as FEN writes it: "K", "q", shogi's promoted "+P" ... (upper case White). */
export type Piece = string;

/** files x ranks squares, index = rank * files + file (see geometry.ts); "" for empty. */
export type Board = Piece[];

/** A piece a hand holds, by its lower-case letter. */
export type PocketRole = string;

/** How many of each piece one side holds to drop. */
export type Pocket = Record<PocketRole, number>;

export interface Sides<T> {
  white: T;
  black: T;
}

/** The checks a Three-check game is won with. */
export const CHECKS_TO_WIN = 3;

/** One position, as its FEN says. */
export interface Position {
  /** The board's shape: the game's. */
  geo: Geometry;
  board: Board;
  /** Crazyhouse: the pieces each side may drop; null in the other variants. */
  pockets: Sides<Pocket> | null;
  /** Three-check: the checks each side has still to give to win; null in the other variants. */
  checksLeft: Sides<number> | null;
  /** Crazyhouse: the squares of promoted pieces (marked `~`), ascending. */
  promoted: number[];
  whiteToMove: boolean;
  /** Plies since the last capture or pawn move. */
  halfmoves: number;
  /** Dice Chess: the face the server rolled for the side to move (the FEN's seventh field). */
  roll: number | null;
  /**
   * Ambiguous Chess: the target the side not to move marked, which the side to move executes
   * with its opponent's pieces (the FEN's seventh field); null when none is pending.
   */
  pending: number | null;
}

/** The square index of "e4" on an 8x8 board, or -1 (`Geometry.parse` for any board). */
export function squareIndex(name: string, geo: Geometry = STANDARD): number {
  return geo.parse(name);
}

/** "e4" for an index of `geo`. */
export function squareName(index: number, geo: Geometry = STANDARD): string {
  return geo.name(index);
}

/** What a FEN's `*` stands for: a square of neither side (an ice cube, a vanished square). */
export const NEUTRAL = "*";

/**
 * A square the viewer does not see (Dark Chess: the server writes `?` for every square outside
 * the seat's view, and every square to a spectator while the game is in play).
 */
export const UNSEEN = "?";

/** White's pieces are upper case; a neutral square is neither side's. */
export const isWhite = (piece: Piece) => piece !== piece.toLowerCase();

/** A pocket with Crazyhouse's pieces at zero (their order keeps pockets comparable as JSON). */
export function emptyPocket(): Pocket {
  return { p: 0, n: 0, b: 0, r: 0, q: 0 };
}

/**
 * The board field of a FEN: the placement, with Crazyhouse's pockets in brackets
 * (`.../RNBQKBNR[Qp]`) or as a ninth rank (`.../RNBQKBNR/Qp`), and promoted pieces marked `~`
 * (a promoted piece captured joins a pocket as a pawn); shogi's promoted pieces are one piece,
 * `+` and the letter (`+P`). Throws on a malformed field.
 */
function parseBoardField(
  field: string,
  geo: Geometry,
): {
  board: Board;
  pockets: Sides<Pocket> | null;
  promoted: number[];
} {
  let placement = field;
  let pocketText: string | null = null;
  const open = field.indexOf("[");
  if (open >= 0) {
    if (!field.endsWith("]")) throw new Error(`bad FEN pockets: ${field}`);
    pocketText = field.slice(open + 1, -1);
    placement = field.slice(0, open);
  }
  let ranks = placement.split("/");
  if (ranks.length === geo.ranks + 1 && pocketText === null) {
    pocketText = ranks[geo.ranks] ?? "";
    ranks = ranks.slice(0, geo.ranks);
  }
  if (ranks.length !== geo.ranks) throw new Error(`bad FEN placement: ${placement}`);
  const board: Board = new Array<Piece>(geo.size).fill("");
  const promoted: number[] = [];
  ranks.forEach((row, i) => {
    const rank = geo.ranks - 1 - i;
    let file = 0;
    let last = "";
    // An empty run is a number, up to the board's width ("10" on a 10-file board).
    for (const [token] of row.matchAll(/\d+|\+[a-zA-Z]|./g)) {
      // A neutral square, or one the viewer does not see, takes its place like a piece.
      if (token === NEUTRAL || token === UNSEEN) {
        if (file >= geo.files) throw new Error(`bad FEN rank: ${row}`);
        board[rank * geo.files + file] = token;
        file += 1;
        last = token;
        continue;
      }
      if (/^\d+$/.test(token)) {
        const run = Number(token);
        if (run < 1 || run > geo.files) throw new Error(`bad FEN rank: ${row}`);
        file += run;
      } else if (/^\+?[a-zA-Z]$/.test(token)) {
        if (file >= geo.files) throw new Error(`bad FEN rank: ${row}`);
        board[rank * geo.files + file] = token;
        file += 1;
      } else if (token === "~" && /^[a-zA-Z]$/.test(last)) {
        promoted.push(rank * geo.files + file - 1);
      } else {
        throw new Error(`bad FEN character: ${token}`);
      }
      last = token;
    }
    if (file !== geo.files) throw new Error(`bad FEN rank: ${row}`);
  });
  promoted.sort((a, b) => a - b);
  if (pocketText === null) return { board, pockets: null, promoted };
  const pockets = { white: emptyPocket(), black: emptyPocket() };
  for (const ch of pocketText) {
    if (ch === "-") continue;
    if (!/^[a-zA-Z]$/.test(ch)) throw new Error(`bad FEN pocket piece: ${ch}`);
    const role = ch.toLowerCase();
    const side = pockets[isWhite(ch) ? "white" : "black"];
    side[role] = (side[role] ?? 0) + 1;
  }
  return { board, pockets, promoted };
}

/**
 * A position from its FEN: six fields, with Three-check's counter either as the checks left
 * before the clocks (`3+3 0 1`, as chessd writes it) or as the checks given after them
 * (`0 1 +0+0`, lichess). The board is `geo`'s (8x8 unless told). Throws on a malformed board
 * field.
 */
export function parseFen(fen: string, geo: Geometry = STANDARD): Position {
  const fields = fen.trim().split(/\s+/);
  const { board, pockets, promoted } = parseBoardField(fields[0] ?? "", geo);
  let checksLeft: Sides<number> | null = null;
  const clocks: string[] = [];
  for (const f of fields.slice(4)) {
    const left = /^(\d+)\+(\d+)$/.exec(f);
    const given = /^\+(\d+)\+(\d+)$/.exec(f);
    if (left) checksLeft = { white: Number(left[1]), black: Number(left[2]) };
    else if (given)
      checksLeft = {
        white: CHECKS_TO_WIN - Number(given[1]),
        black: CHECKS_TO_WIN - Number(given[2]),
      };
    else clocks.push(f);
  }
  const halfmoves = Number(clocks[0]);
  const roll = /^[1-6]$/.test(fields[6] ?? "") ? Number(fields[6]) : null;
  const pendingField = fields[6] ?? "";
  const pending = /^[a-j](?:10|[1-9])$/.test(pendingField) ? geo.parse(pendingField) : -1;
  return {
    geo,
    board,
    pockets,
    checksLeft,
    promoted,
    whiteToMove: fields[1] !== "b",
    halfmoves: Number.isInteger(halfmoves) && halfmoves >= 0 ? halfmoves : 0,
    roll,
    pending: pending < 0 ? null : pending,
  };
}

/**
 * An Ambiguous Chess turn's parts (`g1f3>d5=d7d5`): the execution of the opponent's target
 * ("" on a turn that only marks), the mark, and the move the mark forced ("" when none).
 * Null for any other move's text; a turn that only executes (`a1e1`, taking a king) is a
 * plain move.
 */
export interface TurnParts {
  execution: string;
  mark: string;
  forced: string;
}

export function turnParts(uci: string): TurnParts | null {
  const m = /^([a-z0-9]*)>([a-j](?:10|[1-9]))(?:=([a-z0-9]+))?$/.exec(uci);
  if (!m || m[1] === undefined || !m[2]) return null;
  return { execution: m[1], mark: m[2], forced: m[3] ?? "" };
}

/**
 * What a UCI move names: a piece's squares ("e2e4", "e7e8q"), or a drop ("N@f3"). A shogi
 * promotion is marked `+` ("b2h8+"): its `promotion` is "+".
 */
export type UciParts =
  | { kind: "move"; from: number; to: number; promotion: string }
  | { kind: "drop"; role: PocketRole; to: number };

/** On `geo`'s board: squares "a1" to "j10", a promotion's piece (or shogi's `+`) after them. */
export function parseUci(text: string, geo: Geometry = STANDARD): UciParts | null {
  // A game of chance's record writes the draw after the move (`e2e4~3`, `e2e4~SE4`): the
  // move's squares are the part before it.
  const uci = text.split("~")[0] ?? "";
  const drop = /^([A-Z])@([a-j](?:10|[1-9]))$/.exec(uci);
  if (drop?.[1] && drop[2]) {
    const to = geo.parse(drop[2]);
    return to < 0 ? null : { kind: "drop", role: drop[1].toLowerCase(), to };
  }
  const m = /^([a-j](?:10|[1-9]))([a-j](?:10|[1-9]))([a-z+]?)$/.exec(uci);
  if (!m?.[1] || !m[2]) return null;
  const from = geo.parse(m[1]);
  const to = geo.parse(m[2]);
  if (from < 0 || to < 0) return null;
  return { kind: "move", from, to, promotion: m[3] ?? "" };
}

/** A castling move's squares: where the king and the rook stand and where they land. */
export interface Castling {
  king: number;
  kingTo: number;
  rook: number;
  rookTo: number;
}

/**
 * The squares of a castling move (its SAN is `O-O` or `O-O-O`), played on `board` of `geo`.
 * Written as the king's own move (`e1g1`, Janus's `e1i1`, Embassy's `e1b1`), the king lands
 * where the UCI says and the rook from the corner on that side lands beside it, on the inside.
 * Written as the king taking its own rook (Chess960's `e1h1`, Capablanca Random's `f1j1`), the
 * king lands on the c file or on the second file from the edge on the short side (g1 on 8
 * files, i1 on 10), the rook beside it on the inside. Null for any other move.
 */
export function castlingOf(
  board: Board,
  uci: string,
  san: string,
  geo: Geometry = STANDARD,
): Castling | null {
  const kind = san.replace(/[+#]+$/, "");
  if (kind !== "O-O" && kind !== "O-O-O") return null;
  const parts = parseUci(uci, geo);
  if (parts?.kind !== "move") return null;
  const long = kind === "O-O-O";
  const rank = geo.rankOf(parts.from) * geo.files;
  const last = geo.files - 1;
  const king = board[parts.from] ?? "";
  const onTarget = board[parts.to] ?? "";
  const ownRook =
    onTarget.toLowerCase() === "r" && king !== "" && isWhite(onTarget) === isWhite(king);
  const kingTo = ownRook ? rank + (long ? 2 : last - 1) : parts.to;
  return {
    king: parts.from,
    kingTo,
    rook: ownRook ? parts.to : rank + (long ? 0 : last),
    rookTo: kingTo + (long ? 1 : -1),
  };
}

/**
 * The squares a move's highlight marks: a drop's target only; a castling's king from and to
 * (the rook's when the king stays put, as it may in Chess960); otherwise from and to. `board`
 * is the position the move was played in (for castling), when known; `geo` the game's board.
 */
export function moveSquares(
  uci: string,
  san: string,
  before: Board | null,
  geo: Geometry = STANDARD,
): number[] {
  const turn = turnParts(uci);
  if (turn) {
    // A turn: the opponent's piece it moved, and the mark (with the move it forced there).
    const moved = [turn.execution, turn.forced].flatMap((part) => {
      const p = parseUci(part, geo);
      return p?.kind === "move" ? [p.from, p.to] : [];
    });
    const mark = geo.parse(turn.mark);
    return mark < 0 || moved.includes(mark) ? moved : [...moved, mark];
  }
  const parts = parseUci(uci, geo);
  if (!parts) return [];
  if (parts.kind === "drop") return [parts.to];
  const c = before ? castlingOf(before, uci, san, geo) : null;
  if (c) return c.king !== c.kingTo ? [c.king, c.kingTo] : [c.rook, c.rookTo];
  return [parts.from, parts.to];
}

function copyPockets(p: Sides<Pocket> | null): Sides<Pocket> | null {
  return p ? { white: { ...p.white }, black: { ...p.black } } : null;
}

/** What a move leaves behind in the games whose moves do more than chess's. */
export interface HouseRules {
  /**
   * Recycle: a hand holds the side's own pieces it captured (an enemy piece taken is gone), and
   * a pawn reaching the last rank with no promotion named leaves the board.
   */
  ownHands?: boolean;
  /** Cheshire Cat: the square a piece moves away from vanishes. */
  vanishing?: boolean;
}

/**
 * A sketch of the position after `uci` (SAN `san`), drawn from the move alone: the piece moves
 * (promoted if the move says so), a dropped piece leaves its pocket for its square, a castling
 * king and rook land on their squares, a pawn taken en passant goes, a piece taken joins the
 * taker's pocket where there are pockets (a promoted one as a pawn), and a check the SAN marks
 * counts where checks are counted. Nothing else: no Atomic explosion. The page draws it only
 * where the server has sent no position: the player's own move until the server answers (its
 * FEN replaces the sketch), and the first move of a game the page joined later, which no call
 * of the API returns (for a variant's usual start, the sketch is that position exactly). A game's
 * `rules` change what a move leaves behind (Recycle's hands, Cheshire Cat's vanished squares).
 */
export function sketch(pos: Position, uci: string, san: string, rules: HouseRules = {}): Position {
  const turn = turnParts(uci);
  if (turn) {
    // Ambiguous Chess: the opponent's piece goes to the target, then the move the mark forced;
    // the side to move passes either way (the server's FEN says what is pending).
    const executed = turn.execution
      ? sketch({ ...pos, whiteToMove: !pos.whiteToMove }, turn.execution, turn.execution, rules)
      : pos;
    const after = turn.forced ? sketch(executed, turn.forced, turn.forced, rules) : executed;
    return { ...after, whiteToMove: !pos.whiteToMove, pending: null };
  }
  const geo = pos.geo;
  const parts = parseUci(uci, geo);
  if (!parts) return pos;
  const board = pos.board.slice();
  const pockets = copyPockets(pos.pockets);
  let promoted = pos.promoted;
  const white = pos.whiteToMove;
  if (parts.kind === "drop") {
    board[parts.to] = white ? parts.role.toUpperCase() : parts.role;
    const side = pockets?.[white ? "white" : "black"];
    if (side) side[parts.role] = Math.max(0, (side[parts.role] ?? 0) - 1);
  } else {
    const c = castlingOf(pos.board, uci, san, geo);
    if (c) {
      const king = board[c.king] ?? "";
      const rook = board[c.rook] ?? "";
      board[c.king] = "";
      board[c.rook] = "";
      board[c.kingTo] = king;
      board[c.rookTo] = rook;
    } else {
      const { from, to, promotion } = parts;
      const piece = board[from] ?? "";
      board[from] = rules.vanishing ? NEUTRAL : "";
      let taken = board[to] ?? "";
      // An ice cube taken goes nowhere; an own piece only in Recycle, to its owner's hand.
      const own = taken !== "" && taken !== NEUTRAL && isWhite(taken) === white;
      if (taken === NEUTRAL || (own !== !!rules.ownHands)) taken = "";
      // One rank on, aside: a xiangqi soldier's step aside, or a pawn's knight move in Knight
      // Relay, takes nothing behind it.
      const sideways =
        geo.fileOf(from) !== geo.fileOf(to) && Math.abs(geo.rankOf(from) - geo.rankOf(to)) === 1;
      const behind = to + (isWhite(piece) ? -geo.files : geo.files);
      // Berolina's and Legan's pawns step sideways without taking: only an enemy pawn behind
      // the empty square makes it en passant.
      const passed = board[behind] ?? "";
      const enemyPawn = passed.toLowerCase() === "p" && isWhite(passed) !== isWhite(piece);
      if (piece.toLowerCase() === "p" && sideways && board[to] === "" && enemyPawn) {
        taken = rules.ownHands ? "" : "p";
        board[behind] = "";
      }
      const mine = pockets?.[white ? "white" : "black"];
      if (mine && taken !== "") {
        // A shogi piece goes to the hand unpromoted.
        const role = promoted.includes(to) ? "p" : taken.toLowerCase().replace("+", "");
        mine[role] = (mine[role] ?? 0) + 1;
      }
      const lastRank = geo.rankOf(to) === (isWhite(piece) ? geo.ranks - 1 : 0);
      board[to] =
        rules.ownHands && piece.toLowerCase() === "p" && lastRank && !promotion
          ? ""
          : promotion === "+"
          ? `+${piece}`
          : promotion
            ? isWhite(piece)
              ? promotion.toUpperCase()
              : promotion
            : piece;
      // Crazyhouse marks a promoted piece, wherever it goes.
      const marked =
        pockets !== null &&
        promotion !== "+" &&
        (promotion !== "" || promoted.includes(from));
      promoted = promoted.filter((sq) => sq !== from && sq !== to);
      if (marked) promoted = [...promoted, to].sort((a, b) => a - b);
    }
  }
  let checksLeft = pos.checksLeft;
  if (checksLeft && /[+#]$/.test(san)) {
    const side = white ? "white" : "black";
    checksLeft = { ...checksLeft, [side]: Math.max(0, checksLeft[side] - 1) };
  }
  return { ...pos, board, pockets, promoted, checksLeft, whiteToMove: !white };
}

/** Whether two boards hold the same pieces on the same squares. */
export function samePlacement(a: Board, b: Board): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/**
 * Whether two positions are alike in all the FEN says that makes a repetition but castling and
 * en passant rights: the placement, and the variants' own state (Crazyhouse's pockets and
 * promoted pieces, Three-check's checks left).
 */
export function sameStanding(a: Position, b: Position): boolean {
  return (
    samePlacement(a.board, b.board) &&
    JSON.stringify([a.pockets, a.checksLeft, a.promoted]) ===
      JSON.stringify([b.pockets, b.checksLeft, b.promoted])
  );
}
