// The game lists: live and recent games, polled (ListGames has no stream). The lobby (`#/`)
// shows them for every game with a filter and a form to open a game by id; a rules page
// (`#/rules/<key>`) shows its own game's.

import { ConnectError } from "@connectrpc/connect";

import { client } from "./api.js";
import { h, sleep } from "./dom.js";
import { GAMES } from "./games.js";
import { GameStatus, type GameSummary, Variant } from "./gen/chessd/v1/chessd_pb.js";
import { gameName, outcomeText } from "./text.js";

/** Which games a list shows: all, one `Variant`, or (the wide family's) one key. */
export type GameFilter = { variant?: Variant; variantKey?: string };

/**
 * The filter of a value of the lobby's select: "0" every game, a number a `Variant` (as the
 * values were before the wide family, kept for the tab's stored choice), else a game's key.
 */
export function filterOf(value: string): GameFilter {
  if (value === "0" || value === "") return {};
  return /^\d+$/.test(value) ? { variant: Number(value) as Variant } : { variantKey: value };
}

/** How often the game list is refreshed. */
const LIST_REFRESH_MS = 3000;

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
    h("span", { class: "variant" }, gameName(g.variant, g.variantKey)),
    h("span", { class: "status" }, status),
  );
  return h("li", { "data-game-id": g.gameId }, link);
}

/**
 * Fills `live` and `recent` with the games `filter()` lets through until `signal`
 * aborts, every few seconds and at once when `wake` is called; `onGames` sees each answer.
 */
export async function followGames(
  live: HTMLElement,
  recent: HTMLElement,
  note: HTMLElement,
  filter: () => GameFilter,
  signal: AbortSignal,
  onWake: (wake: () => void) => void = () => {},
): Promise<void> {
  while (!signal.aborted) {
    try {
      const f = filter();
      const [ongoing, all] = await Promise.all([
        client.listGames({ status: GameStatus.ONGOING, ...f, pageSize: 100 }, { signal }),
        client.listGames({ ...f, pageSize: 100 }, { signal }),
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
    const wake = new AbortController();
    onWake(() => wake.abort());
    await sleep(LIST_REFRESH_MS, AbortSignal.any([signal, wake.signal]));
  }
}

/** The lobby's lists of every game: a filter by game, and a form to open a game by id. */
export function gameLists(signal: AbortSignal): HTMLElement {
  const filter = h(
    "select",
    { id: "variant-filter" },
    h("option", { value: "0" }, "All variants"),
    ...GAMES.map((g) =>
      h(
        "option",
        { value: g.variant === Variant.UNSPECIFIED ? g.key : String(g.variant) },
        g.name,
      ),
    ),
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
  let wake = () => {};
  filter.addEventListener("change", () => {
    sessionStorage.setItem("variant", filter.value);
    wake();
  });
  void followGames(
    live,
    recent,
    note,
    () => filterOf(filter.value),
    signal,
    (w) => {
      wake = w;
    },
  );
  return h(
    "section",
    { class: "game-lists", "aria-label": "Games" },
    h("div", { class: "toolbar" }, h("label", { for: "variant-filter" }, "Variant"), filter, open),
    h("h2", {}, "Live games"),
    live,
    h("h2", {}, "Recent games"),
    recent,
    note,
  );
}
