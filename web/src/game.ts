// The game view (`#/game/<id>`): the board, clocks, moves and result of one game, live over
// WatchGame (resumed from the last seq after a drop, restarted from a snapshot after a gap),
// with what its variant keeps off the board (pockets, pocket.ts; checks given, clock.ts). Each
// position drawn is the server's FEN; those a snapshot does not carry come from a replay of the
// game's events (history.ts). The elements are laid out in layout.ts. With a seat (see
// seat.ts) the same view is the player's: the board from the player's side, moves by click,
// drag, keyboard or typing (input.ts), drops from the pocket, the buttons that apply
// (actions.ts), and the player's own move shown at once, then confirmed by the stream or taken
// back with the server's reason. In a secret setup the seat's board is its placement as the
// page builds it (setup.ts): pieces from the tray onto its half, by the same input. In a game
// with the players' entropy the seated page commits and reveals its secret by itself (entropy.ts).

import { type ActionView, ActionBar } from "./actions.js";
import { client } from "./api.js";
import { type BoardMarks, drawBoard } from "./board.js";
import { renderClock } from "./clock.js";
import { type Position, moveSquares, parseFen, sketch } from "./chess.js";
import {
  boardStyle,
  handRoles,
  houseRules,
  pieceSet,
  promotionOrder,
  sanChecks,
  wraps,
} from "./games.js";
import { STANDARD } from "./geometry.js";
import { entropyNote, takePart } from "./entropy.js";
import {
  Color,
  EntropyPhase,
  GameStatus,
  type MoveNotation,
  type WatchGameResponse,
} from "./gen/chessd/v1/chessd_pb.js";
import { fillPositions } from "./history.js";
import { MoveInput } from "./input.js";
import { type Step, gameLayout } from "./layout.js";
import { renderMoves, showLatest } from "./movelist.js";
import { typedMove } from "./moves.js";
import { PocketStrips } from "./pocket.js";
import { ARMY_ROLES, placedText, placements, trayNote, trayOf } from "./placement.js";
import { NOT_THIS_GAMES, refusal, refusalText } from "./refusal.js";
import { Seat, type SeatLink, forgetSeat } from "./seat.js";
import { LocalPlacement, mustPlace, placedOf } from "./setup.js";
import {
  type GameState,
  applyEvent,
  current,
  missingPositions,
  plyOf,
  presenceOf,
  tsMs,
  turnOf,
  updateFromGame,
} from "./state.js";
import {
  colorName,
  formatClock,
  gameTitle,
  moveExamples,
  outcomeText,
  seatText,
} from "./text.js";
import { FIRST_BOARD } from "./timing.js";
import { type Connection, follow } from "./watch.js";

/** The connection line and its `data-state` (the stylesheet colours "Reconnecting…"). */
const CONNECTION_TEXT: Record<Connection["kind"], [string, string]> = {
  live: ["Live", "Live"],
  reconnecting: ["Reconnecting…", "Reconnecting…"],
  over: ["Game over", "over"],
  missing: ["Not found", "missing"],
  private: ["Private", "private"],
};

/** The player's move while the stream has not shown it yet. */
interface Pending {
  /** Plies played when it was sent. */
  ply: number;
  move: MoveNotation;
  /** The server's FEN after it, once SubmitMove answered; till then the page's sketch. */
  fen: string | null;
}

export async function showGame(
  main: HTMLElement,
  id: string,
  signal: AbortSignal,
  link: SeatLink,
): Promise<void> {
  document.title = `chessd · ${id}`;
  let state = null as GameState | null;
  /** The ply shown; null follows the game live. */
  let viewPly: number | null = null;
  /** The flip button: the board turned from its default side (the player's, else White's). */
  let flipped = false;
  /** Server clock minus ours, from each message's server_time. */
  let offset = 0;
  let connection = "Connecting…";

  let seat: Seat | null = link.kind === "seat" ? new Seat(id, link.token) : null;
  /** The seat's side, once the server told. */
  let color: Color | null = null;
  let seatNote =
    link.kind === "malformed"
      ? "This seat link is malformed (a seat token is 32 hex digits): you can watch, not play."
      : seat
        ? "Checking your seat…"
        : "";
  let pending: Pending | null = null;
  /** WatchGame for this game, with the seat's token where there is one. */
  const openStream = (afterSeq: bigint, streamSignal: AbortSignal) =>
    seat
      ? seat.watch(afterSeq, streamSignal)
      : client.watchGame({ gameId: id, afterSeq }, { signal: streamSignal });
  /** GetGame for the legal moves is under way. */
  let fetchingLegal = false;
  /** The ply whose legal moves GetGame failed to get: not asked again until the game moves. */
  let legalFailedAt = -1;

  const say = (text: string) => {
    view.playMessage.textContent = text;
  };
  const bar = seat ? new ActionBar(seat, signal, say) : null;
  const view = gameLayout(main, id, bar?.element ?? null, (where) => step(where));
  const { title, seatLine, boardBox, clockTop, clockBottom, pocketTop, pocketBottom } = view;
  const { boardNote, result, offer, conn, moves, announce, flip, moveText, moveForm } = view;
  const { firstMove } = view;

  const plies = () => (state ? plyOf(state) : 0);
  const geo = () => (state ? state.geo : STANDARD);
  const shown = () => (viewPly === null ? plies() : Math.min(viewPly, plies()));
  /** Black at the bottom: the player's side first, then the flip button. */
  const blackBelow = () => (color === Color.BLACK) !== flipped;
  const myTurn = () =>
    !!state && color !== null && state.status === GameStatus.ONGOING && turnOf(state) === color;
  const canMove = () =>
    !!seat && myTurn() && viewPly === null && pending === null && state?.legal?.ply === plies();
  /** The seat's placement being built on the page, once its side is known. */
  let placement: LocalPlacement | null = null;
  /** The page's placement while the seat has its own to make final (a secret setup). */
  const placing = (): LocalPlacement | null =>
    placement &&
    state?.setup &&
    state.status === GameStatus.ONGOING &&
    viewPly === null &&
    mustPlace(state.setup, placement.color)
      ? placement
      : null;

  /**
   * The position on the screen (null while the replay has not brought it), with the player's
   * unanswered move on it: the server's FEN once SubmitMove answered, the page's sketch before.
   */
  function displayed(): { position: Position | null; highlight: number[]; san: string } {
    const s = state as GameState;
    const at = shown();
    const local = placing();
    if (local) return { position: { ...current(s), board: local.board }, highlight: [], san: "" };
    if (pending && viewPly === null && pending.ply === plies()) {
      const before = current(s);
      return {
        position: pending.fen
          ? parseFen(pending.fen, s.geo)
          : sketch(before, pending.move.uci, pending.move.san, houseRules(s.variantKey || s.variant)),
        highlight: moveSquares(pending.move.uci, pending.move.san, before.board, s.geo),
        san: pending.move.san,
      };
    }
    const uci = at > 0 ? (s.ucis[at - 1] ?? "") : "";
    const san = at > 0 ? (s.sans[at - 1] ?? "") : "";
    const before = at > 0 ? (s.positions[at - 1] ?? null) : null;
    return {
      position: s.positions[at] ?? null,
      highlight: uci ? moveSquares(uci, san, before?.board ?? null, s.geo) : [],
      san,
    };
  }

  const input = seat
    ? new MoveInput(boardBox, {
        board: () => placing()?.board ?? (canMove() && state ? current(state).board : null),
        shown: () => (state ? (displayed().position?.board ?? []) : []),
        legal: () => {
          const local = placing();
          return local ? placements(local.board, local.color) : (state?.legal?.moves ?? []);
        },
        geometry: () => geo(),
        promotions: () => (state ? promotionOrder(state.variantKey || state.variant) : ""),
        pieces: () => pieceSet(state ? state.variantKey || state.variant : ""),
        flipped: blackBelow,
        white: () => color !== Color.BLACK,
        // A placement stays on the page until the player sends it (actions.ts).
        play: (m) => {
          const local = placing();
          if (!local) return void submit(m, m.uci);
          const strict = state?.variantKey === "screen";
          if (local.play(m.uci))
            announce.textContent = placedText(local.board, local.color, m.uci, strict);
        },
        placing: () => placing() !== null,
        unplace: (square) => placing()?.lift(square) ?? false,
        redraw: (moved) => {
          if (moved) boardKey = "";
          renderBoard();
          renderSides();
        },
        announce: (text) => {
          announce.textContent = text;
        },
      })
    : null;
  if (input) {
    input.attachPocket(pocketTop);
    input.attachPocket(pocketBottom);
    boardBox.tabIndex = 0;
    boardBox.setAttribute(
      "aria-label",
      "Board: arrow keys move over the squares, Enter or Space picks a piece and its square",
    );
  }

  function step(where: Step): void {
    if (!state) return;
    const at = shown();
    const target =
      where === "first" ? 0 : where === "prev" ? at - 1 : where === "next" ? at + 1 : plies();
    const clamped = Math.max(0, Math.min(plies(), target));
    viewPly = clamped === plies() ? null : clamped;
    input?.reset();
    render();
    const button = moves.querySelector<HTMLButtonElement>(`button[data-ply="${clamped}"]`);
    if (moves.contains(document.activeElement) && button) button.focus();
  }

  flip.addEventListener("click", () => {
    flipped = !flipped;
    flip.setAttribute("aria-pressed", String(flipped));
    render();
  });
  moves.addEventListener("click", (e) => {
    const ply = (e.target as HTMLElement).closest("button")?.dataset.ply;
    if (ply === undefined || !state) return;
    viewPly = Number(ply) === plies() ? null : Number(ply);
    input?.reset();
    render();
  });
  moveForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = moveText.value.trim();
    if (!text || !state) return;
    if (!myTurn()) {
      say(`It is not your turn: ${colorName(turnOf(state))} is to move.`);
      return;
    }
    if (pending) {
      say("Your last move has not been answered yet.");
      return;
    }
    if (viewPly !== null) {
      say("Go to the latest move to play.");
      return;
    }
    moveText.value = "";
    // A text that names no legal move, or typed before this ply's legal moves came, goes to the
    // server as typed: it plays it, or its refusal says what is wrong.
    const legal = state.legal?.ply === plies() ? state.legal.moves : [];
    const m = typedMove(text, legal, current(state).board, state.geo);
    void submit(m, m ? m.uci : text);
  });
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    // The board's own keys (arrows, Enter, Space, Escape) stop at the board (input.ts).
    if (target.closest("input, select, textarea")) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => step("prev"),
      ArrowRight: () => step("next"),
      ArrowUp: () => step("prev"),
      ArrowDown: () => step("next"),
      Home: () => step("first"),
      End: () => step("last"),
      f: () => flip.click(),
    };
    const action = keys[e.key];
    if (!action) return;
    // Up and down scroll the page unless the move list has the focus.
    if ((e.key === "ArrowUp" || e.key === "ArrowDown") && !moves.contains(target)) return;
    e.preventDefault();
    action();
  };
  document.addEventListener("keydown", onKey);
  signal.addEventListener("abort", () => document.removeEventListener("keydown", onKey));

  /**
   * Sends the player's move: `move` is the legal move picked (shown at once), or null for a
   * typed text that names none (shown only if the server plays it).
   */
  async function submit(move: MoveNotation | null, text: string): Promise<void> {
    if (!state || !seat) return;
    const ply = plies();
    pending = move ? { ply, move, fen: null } : null;
    say("");
    render();
    try {
      const answer = await seat.submitMove(text, ply, signal, () =>
        say("No answer from chessd yet: sending your move again (it can only be played once)…"),
      );
      // The server's position replaces the sketch until the stream shows the move.
      const fen = answer.game?.fen;
      if (pending?.ply === ply && answer.move?.uci === pending.move.uci && fen) {
        if (answer.game?.ply === ply + 1) pending.fen = fen;
      }
      say("");
    } catch (e) {
      if (signal.aborted) return;
      // Taken back: the board shows the server's position again.
      if (pending?.ply === ply) pending = null;
      say(refusalText(refusal(e)));
    }
    // Answered: the stream shows the move (and clears `pending`) when it gets there.
    render();
  }

  /** Fetches the legal moves when it is the player's turn (move events do not carry them). */
  async function ensureLegal(): Promise<void> {
    if (!seat || !state || !myTurn() || fetchingLegal || legalFailedAt === plies()) return;
    // Known for this ply, or for a later one the stream has not shown yet.
    if (state.legal && state.legal.ply >= plies()) return;
    fetchingLegal = true;
    const asked = plies();
    try {
      const g = await seat.gameAtLeast(plies, signal);
      if (g && state) {
        state.legal = { ply: g.ply, moves: g.legalMoves };
        updateFromGame(state, g);
      } else if (!signal.aborted) {
        legalFailedAt = asked;
        say("The server has not caught up with this game yet: reload the page to play on.");
      }
    } catch (e) {
      if (!signal.aborted) {
        legalFailedAt = plies();
        say(`Cannot get the legal moves: ${refusalText(refusal(e))}`);
      }
    } finally {
      fetchingLegal = false;
    }
    render();
  }

  function renderClocks(): void {
    if (!state) return;
    const s = state;
    const bottomColor = blackBelow() ? Color.BLACK : Color.WHITE;
    const shown = displayed().position;
    const left = shown?.checksLeft ?? null;
    for (const [node, side] of [
      [clockBottom, bottomColor],
      [clockTop, bottomColor === Color.WHITE ? Color.BLACK : Color.WHITE],
    ] as const) {
      const white = side === Color.WHITE;
      renderClock(node, {
        side,
        name: white ? s.white : s.black,
        you: side === color,
        clocks: s.clocks,
        serverNow: Date.now() + offset,
        checksLeft: left ? (white ? left.white : left.black) : null,
        roll: shown && shown.whiteToMove === white ? shown.roll : null,
        presence: s.status === GameStatus.ONGOING ? presenceOf(s, side) : null,
      });
    }
    const deadline = s.status === GameStatus.ONGOING ? s.firstMoveDeadline : null;
    firstMove.hidden = deadline === null;
    if (deadline !== null) {
      const left = formatClock(deadline - (Date.now() + offset)).replace(/\.\d$/, "");
      firstMove.textContent = `${colorName(turnOf(s))} has ${left} to make a first move, or the game is aborted`;
    }
  }

  /** What the seat's buttons look at now. */
  const actionView = (): ActionView | null =>
    state && color !== null && seat
      ? { state, color, serverNow: Date.now() + offset, placement }
      : null;

  /** The board's last drawing, to redraw only what changed (a drag survives other events). */
  let boardKey = "";
  const pocketStrips = new PocketStrips(pocketTop, pocketBottom);

  /** Crazyhouse's pockets of the position shown, each beside its side of the board. */
  function renderSides(): void {
    if (!state) return;
    const local = placing();
    const game = state.variantKey || state.variant;
    // The seat's tray stands in its pocket's place; the opponent's strip stays hidden.
    const tray = local ? trayOf(local.board, local.color) : null;
    pocketStrips.update({
      pockets: tray ? { white: tray, black: tray } : (displayed().position?.pockets ?? null),
      roles: local ? ARMY_ROLES : handRoles(game),
      set: pieceSet(game),
      geo: state.geo,
      bottomWhite: !blackBelow(),
      own: seat && color !== null ? color === Color.WHITE : null,
      legal: local
        ? placements(local.board, local.color)
        : canMove()
          ? (state.legal?.moves ?? [])
          : [],
      picked: input?.marks().pocketRole ?? null,
      tray: local
        ? {
            note: trayNote(local.board, local.color, state.variantKey === "screen"),
            lifting: input?.marks().selected != null,
          }
        : undefined,
    });
  }

  /** The snapshot whose positions are being replayed (or were), and whether that failed. */
  let historyOf: GameState | null = null;
  let historyFailed = false;

  /** Fetches the positions a snapshot lists only as moves (see history.ts). */
  async function loadHistory(): Promise<void> {
    const s = state;
    if (!s || historyOf === s || !missingPositions(s) || s.lastSeq < 2n) return;
    historyOf = s;
    historyFailed = false;
    const found = await fillPositions(s, openStream, signal, () => state === s);
    if (found === "stale") return;
    historyFailed = found === "failed";
    boardKey = "";
    render();
  }

  function renderBoard(): void {
    if (!state) return;
    const at = shown();
    const { position: shownPosition, highlight: lastMove, san } = displayed();
    const picked = input?.marks();
    // Ambiguous Chess: the execution chosen is drawn as made while the player marks.
    const executed = picked?.executed ?? null;
    const position =
      executed && shownPosition
        ? sketch(
            { ...shownPosition, whiteToMove: !shownPosition.whiteToMove },
            executed,
            executed,
            houseRules(state.variantKey || state.variant),
          )
        : shownPosition;
    const highlight = executed
      ? moveSquares(executed, executed, shownPosition?.board ?? null, state.geo)
      : lastMove;
    const board = position?.board ?? new Array<string>(state.geo.size).fill("");
    // SAN marks a move that gives check (+) or mates (#); the king of the side to move is hit.
    // Shogi's SAN marks no check: its `+` is a promotion.
    const marked = sanChecks(state.variantKey || state.variant) ? /[+#]$/ : /#$/;
    const check = marked.test(san) && position ? (position.whiteToMove ? "K" : "k") : null;
    const marks: BoardMarks = {
      highlight,
      check,
      selected: picked?.selected ?? null,
      targets: picked?.targets,
      cursor: picked?.cursor ?? null,
      pending: executed ? null : (shownPosition?.pending ?? null),
    };
    const key = JSON.stringify([
      board,
      state.geo.files,
      blackBelow(),
      highlight,
      check,
      marks.selected,
      [...(marks.targets ?? [])],
      marks.cursor,
      marks.pending,
    ]);
    // A position the replay has not brought yet (or could not) is not drawn from the rules.
    boardNote.textContent = position
      ? ""
      : historyFailed
        ? "This position could not be loaded from the server: reload the page to try again."
        : "Loading this position from the server…";
    if (state.sketched.has(at)) boardBox.dataset.source = "sketch";
    else delete boardBox.dataset.source;
    boardBox.dataset.ply = String(at);
    boardBox.classList.toggle("playable", canMove() || placing() !== null);
    if (pending) boardBox.dataset.pending = pending.move.uci;
    else delete boardBox.dataset.pending;
    if (key === boardKey) return;
    boardKey = key;
    const game = state.variantKey || state.variant;
    const set = pieceSet(game);
    const style = boardStyle(game);
    const svg = drawBoard(board, state.geo, blackBelow(), marks, set, style, wraps(game));
    const old = boardBox.querySelector("svg.board");
    if (old) old.replaceWith(svg);
    else boardBox.prepend(svg);
    // The first board of a game drawn from a position: what the browser test times a load by.
    if (position && performance.getEntriesByName(FIRST_BOARD).length === 0)
      performance.mark(FIRST_BOARD);
  }

  function render(): void {
    if (!state) {
      seatLine.textContent = seatNote;
      return;
    }
    if (placement && state.setup) placement.sync(placedOf(state.setup, placement.color));
    const at = shown();
    title.textContent = gameTitle(
      state.white,
      state.black,
      state.variant,
      state.startFen,
      state.variantKey,
    );
    renderBoard();
    renderSides();
    renderClocks();
    seatLine.textContent =
      color === null
        ? state.delay > 0 && state.status === GameStatus.ONGOING
          ? `${seatNote} · shown ${state.delay} plies behind the game`
          : seatNote
        : seatText(
            color,
            state.status,
            state.outcome?.winner ?? Color.UNSPECIFIED,
            turnOf(state),
            viewPly !== null,
          );
    result.textContent = state.outcome ? outcomeText(state.outcome) : "";
    offer.textContent =
      state.drawOffer !== Color.UNSPECIFIED
        ? `${colorName(state.drawOffer)} offers a draw`
        : state.takebackOffer !== Color.UNSPECIFIED
          ? `${colorName(state.takebackOffer)} proposes a takeback`
          : entropyProblem || entropyNote(state.entropy, color) || state.note;
    conn.textContent = connection;
    conn.dataset.state = state.status === GameStatus.ONGOING ? connection : "over";
    bar?.update(actionView());
    moveForm.hidden = !(seat && color !== null && state.status === GameStatus.ONGOING);
    moveText.placeholder = moveExamples(state.variant, state.variantKey);

    renderMoves(moves, state.sans, at, pending?.ply === plies() ? pending.move.san : null);
    if (viewPly === null) showLatest(moves);
    void ensureLegal();
    addEntropy();
  }

  /** The round of the players' entropy as last acted on (phase and own commitment). */
  let entropyActed = "";
  let addingEntropy = false;
  /** Why the page could not take its part, shown under the board ("" when it could). */
  let entropyProblem = "";

  /** Takes the seat's next part of the players' entropy, once for each state of the round. */
  function addEntropy(): void {
    const round = state?.entropy;
    if (!seat || color === null || !round || addingEntropy) return;
    if (state?.status !== GameStatus.ONGOING || round.phase === EntropyPhase.DONE) return;
    const own = color === Color.WHITE ? round.whiteCommitment : round.blackCommitment;
    const key = `${round.phase}:${own}`;
    if (key === entropyActed) return;
    addingEntropy = true;
    takePart(seat, id, color, round, signal).then(
      (problem) => {
        entropyProblem = problem;
        entropyActed = key;
      },
      (e) => {
        // Tried again when the round changes, not on every redraw.
        entropyProblem = `Could not add your entropy: ${refusalText(refusal(e))}`;
        entropyActed = key;
      },
    ).finally(() => {
      addingEntropy = false;
      if (!signal.aborted) render();
    });
  }

  function apply(msg: WatchGameResponse): void {
    if (msg.serverTime) offset = tsMs(msg.serverTime) - Date.now();
    const before = plies();
    const next = applyEvent(state, msg);
    state = next.state;
    if (!state || msg.event.case === "heartbeat") return;
    if (plyOf(state) !== before || msg.event.case === "snapshot") {
      input?.reset();
      // The server has shown the ply the player's move was sent at: the move or another (or
      // took moves back from under it).
      if (pending && (plyOf(state) > pending.ply || plyOf(state) < before)) pending = null;
    }
    if (next.announce) announce.textContent = next.announce;
    render();
    if (msg.event.case === "snapshot") void loadHistory();
  }

  if (seat) {
    const asking = seat;
    void (async () => {
      try {
        color = await asking.color(signal);
        if (color !== null) placement = new LocalPlacement(color, () => render());
        if (color === null) {
          // The server found no seat for the token here: the same as a refused one.
          forgetSeat(id);
          seat = null;
          seatNote = NOT_THIS_GAMES;
        }
      } catch (e) {
        if (signal.aborted) return;
        const r = refusal(e);
        // Under --private-watch a token of another game cannot read this one (NOT_A_PLAYER).
        const notHere = r.reason === "TOKEN_INVALID" || r.reason === "NOT_A_PLAYER";
        if (notHere) {
          forgetSeat(id);
          seat = null;
        }
        seatNote = notHere ? NOT_THIS_GAMES : `Cannot check your seat: ${refusalText(r)}`;
      }
      render();
    })();
  }
  render();

  // Clocks, the first-move countdown and the presence strips count down; a claim becomes
  // possible when a grace period ends (the bar redraws only when what applies changes).
  const ticker = setInterval(() => {
    const s = state;
    if (!s) return;
    const live = s.status === GameStatus.ONGOING;
    const waiting = !!s.presence.white?.claimAt || !!s.presence.black?.claimAt;
    if (s.clocks?.running || (live && (s.firstMoveDeadline !== null || waiting))) renderClocks();
    if (live && waiting) bar?.update(actionView());
  }, 100);
  signal.addEventListener("abort", () => clearInterval(ticker));

  await follow(
    {
      open: openStream,
      resumeAfter: () => (!state ? 0n : state.status === GameStatus.ONGOING ? state.lastSeq : null),
      message: apply,
      restart: () => {
        state = null;
      },
      connection: (c) => {
        const [line, data] = CONNECTION_TEXT[c.kind];
        connection = line;
        if (state) render();
        // What render writes, unless no game was ever shown (or the line says more).
        conn.textContent =
          c.kind === "missing"
            ? `No game ${id} on this server.`
            : c.kind === "private"
              ? c.text
              : line;
        conn.dataset.state = data;
      },
    },
    signal,
  );
}
