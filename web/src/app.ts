// The spectator page: a list of live and recent games (`#/`) and a live game view
// (`#/game/<id>`), over gRPC-Web to the chessd that served the page.

import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Duration, Timestamp } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";

import { drawBoard } from "./board.js";
import { type Board, parseFen, playUci, uciSquares } from "./chess.js";
import {
  type Clocks,
  Color,
  type Game,
  GameService,
  GameStatus,
  type GameSummary,
  type Outcome,
  Termination,
  Variant,
  type WatchGameResponse,
} from "./gen/chessd/v1/chessd_pb.js";

const client = createClient(
  GameService,
  createGrpcWebTransport({ baseUrl: location.origin, useBinaryFormat: true }),
);

/** How often the game list is refreshed (ListGames has no stream). */
const LIST_REFRESH_MS = 3000;
/** Reconnect backoff bounds for a dropped WatchGame stream. */
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 8000;
/**
 * A stream silent this long is presumed dead (a network that drops packets without closing
 * the connection) and reopened; chessd sends a heartbeat every 5 s by default.
 */
const STALL_MS = 30_000;

const main = document.getElementById("main") as HTMLElement;

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });

function variantName(v: Variant): string {
  return v === Variant.RACING_KINGS ? "Racing Kings" : "Chess";
}

const TERMINATION_TEXT: Record<number, string> = {
  [Termination.CHECKMATE]: "checkmate",
  [Termination.STALEMATE]: "stalemate",
  [Termination.INSUFFICIENT_MATERIAL]: "insufficient material",
  [Termination.REPETITION]: "repetition",
  [Termination.FIFTY_MOVE_RULE]: "the fifty-move rule",
  [Termination.RACE]: "the race to rank 8",
  [Termination.RESIGNATION]: "resignation",
  [Termination.AGREEMENT]: "agreement",
  [Termination.TIME_FORFEIT]: "time forfeit",
  [Termination.ABANDONMENT]: "abandonment",
  [Termination.ABORTED]: "abort",
};

/** "1-0 · White wins by checkmate", "½-½ · Draw by agreement", "Aborted". */
export function outcomeText(o: Outcome): string {
  if (o.termination === Termination.ABORTED) return "Game aborted";
  const reason = TERMINATION_TEXT[o.termination] ?? "an unknown reason";
  const result = o.pgnResult === "1/2-1/2" ? "½-½" : o.pgnResult;
  if (o.winner === Color.WHITE) return `${result} · White wins by ${reason}`;
  if (o.winner === Color.BLACK) return `${result} · Black wins by ${reason}`;
  return `${result} · Draw by ${reason}`;
}

function durationMs(d: Duration | undefined): number {
  return d ? Number(d.seconds) * 1000 + Math.floor(d.nanos / 1e6) : 0;
}

function tsMs(t: Timestamp | undefined): number {
  return t ? timestampMs(t) : Date.now();
}

/** "4:59", "0:07.3" (tenths under ten seconds), "1:02:03". */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  const total = Math.floor(clamped / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${ss}`;
  if (clamped < 10_000) return `${minutes}:${ss}.${Math.floor((clamped % 1000) / 100)}`;
  return `${minutes}:${ss}`;
}

// ---------------------------------------------------------------------------------------------
// Router

let current: AbortController | null = null;

function route(): void {
  current?.abort();
  current = new AbortController();
  const match = /^#\/game\/([0-9A-Za-z]+)$/.exec(location.hash);
  main.replaceChildren();
  if (match?.[1]) {
    void showGame(match[1], current.signal);
  } else {
    void showList(current.signal);
  }
}

// ---------------------------------------------------------------------------------------------
// Game list

function summaryRow(g: GameSummary): HTMLElement {
  const status =
    g.status === GameStatus.ONGOING
      ? `Live · move ${Math.floor(g.ply / 2) + 1}`
      : g.outcome
        ? outcomeText(g.outcome)
        : "Over";
  const link = h(
    "a",
    { href: `#/game/${g.gameId}`, class: "game-link" },
    h("span", { class: "players" }, `${g.whitePlayer || "White"} – ${g.blackPlayer || "Black"}`),
    h("span", { class: "variant" }, variantName(g.variant)),
    h("span", { class: "status" }, status),
  );
  return h("li", { "data-game-id": g.gameId }, link);
}

async function showList(signal: AbortSignal): Promise<void> {
  document.title = "chessd · games";
  const filter = h(
    "select",
    { id: "variant-filter" },
    h("option", { value: "0" }, "All variants"),
    h("option", { value: String(Variant.CHESS) }, "Chess"),
    h("option", { value: String(Variant.RACING_KINGS) }, "Racing Kings"),
  );
  filter.value = sessionStorage.getItem("variant") ?? "0";
  const idInput = h("input", {
    id: "game-id",
    name: "game-id",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "game id",
  });
  const open = h(
    "form",
    { class: "open-game" },
    h("label", { for: "game-id" }, "Open a game"),
    idInput,
    h("button", { type: "submit" }, "Watch"),
  );
  open.addEventListener("submit", (e) => {
    e.preventDefault();
    const id = idInput.value.trim();
    if (id) location.hash = `#/game/${encodeURIComponent(id)}`;
  });
  const live = h("ul", { id: "live-games", class: "games" });
  const recent = h("ul", { id: "recent-games", class: "games" });
  const note = h("p", { class: "note", role: "status" });
  main.append(
    h(
      "div",
      { class: "toolbar" },
      h("label", { for: "variant-filter" }, "Variant"),
      filter,
      open,
    ),
    h("h2", {}, "Live games"),
    live,
    h("h2", {}, "Recent games"),
    recent,
    note,
  );
  let wake = () => {};
  filter.addEventListener("change", () => {
    sessionStorage.setItem("variant", filter.value);
    wake();
  });
  while (!signal.aborted) {
    try {
      const variant = Number(filter.value) as Variant;
      const [ongoing, all] = await Promise.all([
        client.listGames({ status: GameStatus.ONGOING, variant, pageSize: 100 }, { signal }),
        client.listGames({ variant, pageSize: 100 }, { signal }),
      ]);
      const finished = all.games.filter((g) => g.status !== GameStatus.ONGOING).slice(0, 30);
      live.replaceChildren(...ongoing.games.map(summaryRow));
      recent.replaceChildren(...finished.map(summaryRow));
      if (!ongoing.games.length) live.append(h("li", { class: "empty" }, "No game in progress."));
      if (!finished.length) recent.append(h("li", { class: "empty" }, "No finished game yet."));
      note.textContent = "";
    } catch (e) {
      if (signal.aborted) return;
      note.textContent = `Cannot reach chessd: ${ConnectError.from(e).rawMessage}. Retrying…`;
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, LIST_REFRESH_MS);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
      signal.addEventListener("abort", wake, { once: true });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Game view

interface ClockState {
  white: number;
  black: number;
  running: Color;
  /** Server time (ms since the epoch) the values were read at. */
  readAt: number;
}

interface GameState {
  id: string;
  variant: Variant;
  white: string;
  black: string;
  sans: string[];
  ucis: string[];
  /** boards[i] is the position after i plies. */
  boards: Board[];
  status: GameStatus;
  outcome: Outcome | null;
  clocks: ClockState | null;
  drawOffer: Color;
  lastSeq: bigint;
  note: string;
}

function clockState(c: Clocks | undefined): ClockState | null {
  if (!c) return null;
  return {
    white: durationMs(c.whiteRemaining),
    black: durationMs(c.blackRemaining),
    running: c.running,
    readAt: tsMs(c.readAt),
  };
}

function fromSnapshot(g: Game, seq: bigint): GameState {
  const boards: Board[] = [parseFen(g.startFen)];
  for (const m of g.moves) boards.push(playUci(boards[boards.length - 1] as Board, m.uci));
  // The server's position is authoritative for the current ply.
  boards[boards.length - 1] = parseFen(g.fen);
  return {
    id: g.gameId,
    variant: g.variant,
    white: g.whitePlayer,
    black: g.blackPlayer,
    sans: g.moves.map((m) => m.san),
    ucis: g.moves.map((m) => m.uci),
    boards,
    status: g.status,
    outcome: g.outcome ?? null,
    clocks: clockState(g.clocks),
    drawOffer: g.drawOffer,
    lastSeq: seq,
    note: "",
  };
}

/** Why a stream must start again from a snapshot. */
class Resync extends Error {}

async function showGame(id: string, signal: AbortSignal): Promise<void> {
  document.title = `chessd · ${id}`;
  let state = null as GameState | null;
  /** The ply shown; null follows the game live. */
  let viewPly: number | null = null;
  let flipped = false;
  /** Server clock minus ours, from each message's server_time. */
  let offset = 0;
  let connection = "Connecting…";

  const title = h("h2", { id: "game-title" }, `Game ${id}`);
  const boardBox = h("div", { class: "board-box", id: "board" });
  const clockTop = h("div", { class: "clock", id: "clock-top" });
  const clockBottom = h("div", { class: "clock", id: "clock-bottom" });
  const result = h("p", { id: "result", class: "result", role: "status" });
  const offer = h("p", { id: "draw-offer", class: "offer", role: "status" });
  const conn = h("p", { id: "connection", class: "connection", role: "status" });
  const moves = h("ol", { id: "moves", class: "moves", "aria-label": "Moves" });
  const announce = h("p", { class: "visually-hidden", "aria-live": "polite" });
  const flip = h("button", { type: "button", id: "flip", "aria-pressed": "false" }, "Flip board");
  const nav = (label: string, text: string, go: () => void) => {
    const b = h("button", { type: "button", "aria-label": label, title: label }, text);
    b.addEventListener("click", go);
    return b;
  };
  const controls = h(
    "div",
    { class: "controls" },
    nav("First position", "«", () => step("first")),
    nav("Previous move", "‹", () => step("prev")),
    nav("Next move", "›", () => step("next")),
    nav("Latest move", "»", () => step("last")),
    flip,
  );
  main.append(
    h("p", {}, h("a", { href: "#/" }, "← All games")),
    title,
    h(
      "div",
      { class: "game" },
      h("div", { class: "board-col" }, clockTop, boardBox, clockBottom, controls),
      h("div", { class: "side-col" }, conn, result, offer, moves, announce),
    ),
  );

  const plies = () => (state ? state.boards.length - 1 : 0);
  const shown = () => (viewPly === null ? plies() : Math.min(viewPly, plies()));

  function step(where: "first" | "prev" | "next" | "last"): void {
    if (!state) return;
    const at = shown();
    const target =
      where === "first" ? 0 : where === "prev" ? at - 1 : where === "next" ? at + 1 : plies();
    const clamped = Math.max(0, Math.min(plies(), target));
    viewPly = clamped === plies() ? null : clamped;
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
    render();
  });
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (target.closest("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
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

  function clockMs(c: ClockState, color: Color): number {
    const base = color === Color.WHITE ? c.white : c.black;
    if (c.running !== color) return base;
    return Math.max(0, base - (Date.now() + offset - c.readAt));
  }

  function renderClocks(): void {
    const bottomColor = flipped ? Color.BLACK : Color.WHITE;
    for (const [node, color] of [
      [clockBottom, bottomColor],
      [clockTop, bottomColor === Color.WHITE ? Color.BLACK : Color.WHITE],
    ] as const) {
      const white = color === Color.WHITE;
      const name = state ? (white ? state.white : state.black) || (white ? "White" : "Black") : "";
      const c = state?.clocks;
      const time = c ? formatClock(clockMs(c, color)) : "–";
      node.dataset.color = white ? "white" : "black";
      node.classList.toggle("running", !!c && c.running === color);
      node.replaceChildren(
        h("span", { class: "name" }, h("span", { class: `swatch ${white ? "white" : "black"}` }), name),
        h("span", { class: "time", "data-clock": white ? "white" : "black" }, time),
      );
    }
  }

  function render(): void {
    if (!state) return;
    const at = shown();
    title.textContent = `${state.white || "White"} – ${state.black || "Black"} · ${variantName(state.variant)}`;
    // SAN marks a move that gives check (+) or mates (#); the king of the side to move is hit.
    const san = at > 0 ? (state.sans[at - 1] ?? "") : "";
    const moved = uciSquares(state.ucis[at - 1] ?? "");
    const mover = moved ? (state.boards[at]?.[moved.to] ?? "") : "";
    const check = /[+#]$/.test(san) && mover ? (mover === mover.toUpperCase() ? "k" : "K") : null;
    boardBox.replaceChildren(
      drawBoard(
        state.boards[at] as Board,
        at > 0 ? (state.ucis[at - 1] ?? null) : null,
        flipped,
        check,
      ),
    );
    boardBox.dataset.ply = String(at);
    renderClocks();
    result.textContent = state.outcome ? outcomeText(state.outcome) : "";
    offer.textContent =
      state.drawOffer === Color.WHITE
        ? "White offers a draw"
        : state.drawOffer === Color.BLACK
          ? "Black offers a draw"
          : state.note;
    conn.textContent = connection;
    conn.dataset.state = state.status === GameStatus.ONGOING ? connection : "over";

    const items: HTMLElement[] = [];
    for (let i = 0; i < state.sans.length; i += 2) {
      const row = h("li", { value: String(i / 2 + 1) });
      for (const ply of [i + 1, i + 2]) {
        const san = state.sans[ply - 1];
        if (san === undefined) continue;
        const b = h(
          "button",
          {
            type: "button",
            "data-ply": String(ply),
            "aria-label": `${Math.ceil(ply / 2)}${ply % 2 ? "." : "..."} ${san}`,
            tabindex: ply === at || (at === 0 && ply === 1) ? "0" : "-1",
          },
          san,
        );
        if (ply === at) b.setAttribute("aria-current", "step");
        row.append(b);
      }
      items.push(row);
    }
    const hadFocus = moves.contains(document.activeElement);
    moves.replaceChildren(...items);
    if (hadFocus) moves.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
    if (viewPly === null) moves.lastElementChild?.scrollIntoView({ block: "nearest" });
  }

  function apply(msg: WatchGameResponse): void {
    if (msg.serverTime) offset = tsMs(msg.serverTime) - Date.now();
    const ev = msg.event;
    if (ev.case === "heartbeat" || ev.case === undefined) return;
    if (ev.case === "snapshot") {
      state = fromSnapshot(ev.value, msg.seq);
      render();
      return;
    }
    if (!state) throw new Resync("an event before the snapshot");
    // A replay after a reconnect may repeat what we have: sequence numbers make it exact.
    if (msg.seq <= state.lastSeq) return;
    if (msg.seq !== state.lastSeq + 1n) throw new Resync(`gap: ${state.lastSeq} → ${msg.seq}`);
    state.lastSeq = msg.seq;
    switch (ev.case) {
      case "movePlayed": {
        const m = ev.value.move;
        if (!m || m.ply !== state.sans.length + 1) throw new Resync("unexpected ply");
        state.sans.push(m.san);
        state.ucis.push(m.uci);
        state.boards.push(parseFen(ev.value.fen));
        state.clocks = clockState(ev.value.clocks);
        state.drawOffer = ev.value.drawOffer;
        state.note = "";
        announce.textContent = `${Math.ceil(m.ply / 2)}${m.ply % 2 ? "." : "..."} ${m.san}`;
        break;
      }
      case "drawOffered":
        state.drawOffer = ev.value.by;
        break;
      case "drawDeclined":
        state.drawOffer = Color.UNSPECIFIED;
        state.note = `${ev.value.by === Color.WHITE ? "White" : "Black"} declined the draw`;
        break;
      case "gameOver": {
        const o = ev.value.outcome ?? null;
        state.outcome = o;
        state.status =
          o?.termination === Termination.ABORTED ? GameStatus.ABORTED : GameStatus.FINISHED;
        state.drawOffer = Color.UNSPECIFIED;
        if (state.clocks) {
          // The clocks stop when the game ends: freeze them at the end time.
          const at = tsMs(msg.serverTime);
          const c = state.clocks;
          const frozen = (color: Color) =>
            c.running === color
              ? Math.max(0, (color === Color.WHITE ? c.white : c.black) - (at - c.readAt))
              : color === Color.WHITE
                ? c.white
                : c.black;
          state.clocks = {
            white: frozen(Color.WHITE),
            black: frozen(Color.BLACK),
            running: Color.UNSPECIFIED,
            readAt: at,
          };
        }
        if (o) announce.textContent = outcomeText(o);
        break;
      }
    }
    render();
  }

  const ticker = setInterval(() => {
    if (state?.clocks?.running) renderClocks();
  }, 100);
  signal.addEventListener("abort", () => clearInterval(ticker));

  let backoff = RETRY_MIN_MS;
  while (!signal.aborted) {
    if (state && state.status !== GameStatus.ONGOING) break;
    const streamAbort = new AbortController();
    const stop = () => streamAbort.abort();
    signal.addEventListener("abort", stop);
    let stall = setTimeout(stop, STALL_MS);
    try {
      const stream = client.watchGame(
        { gameId: id, afterSeq: state?.lastSeq ?? 0n },
        { signal: streamAbort.signal },
      );
      for await (const msg of stream) {
        clearTimeout(stall);
        stall = setTimeout(stop, STALL_MS);
        if (connection !== "Live") {
          connection = "Live";
          if (state) render();
        }
        backoff = RETRY_MIN_MS;
        apply(msg);
      }
    } catch (e) {
      if (signal.aborted) return;
      const err = ConnectError.from(e);
      if (e instanceof Resync || err.code === Code.OutOfRange) {
        // Our place in the stream is unusable (a gap, or a server that lost the game's
        // history): start over from a snapshot.
        state = null;
      } else if (err.code === Code.NotFound || err.code === Code.InvalidArgument) {
        connection = "Not found";
        conn.textContent = `No game ${id} on this server.`;
        conn.dataset.state = "missing";
        return;
      }
    } finally {
      clearTimeout(stall);
      signal.removeEventListener("abort", stop);
    }
    if (state && state.status !== GameStatus.ONGOING) break;
    connection = "Reconnecting…";
    conn.textContent = connection;
    conn.dataset.state = connection;
    await sleep(backoff, signal);
    backoff = Math.min(backoff * 2, RETRY_MAX_MS);
  }
  connection = "Game over";
  if (state) render();
  conn.textContent = "Game over";
  conn.dataset.state = "over";
}

window.addEventListener("hashchange", route);
route();
