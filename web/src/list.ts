// The game list (`#/`): live and recent games, a variant filter, and a form to open a game by
// id. ListGames has no stream, so the list is polled.

import { ConnectError } from "@connectrpc/connect";

import { client } from "./api.js";
import { h } from "./dom.js";
import { GameStatus, type GameSummary, type Variant } from "./gen/chessd/v1/chessd_pb.js";
import { VARIANTS, outcomeText, variantName } from "./text.js";

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
    h("span", { class: "variant" }, variantName(g.variant)),
    h("span", { class: "status" }, status),
  );
  return h("li", { "data-game-id": g.gameId }, link);
}

export async function showList(main: HTMLElement, signal: AbortSignal): Promise<void> {
  document.title = "chessd · games";
  const filter = h(
    "select",
    { id: "variant-filter" },
    h("option", { value: "0" }, "All variants"),
    ...VARIANTS.map((v) => h("option", { value: String(v) }, variantName(v))),
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
    h("div", { class: "toolbar" }, h("label", { for: "variant-filter" }, "Variant"), filter, open),
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
