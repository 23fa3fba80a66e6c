// The lobby (`#/`): every game chessd plays, grouped by family, each with its one-line rules,
// its statistics (GetStats: games finished, won by White, by Black, drawn), how many games of
// it are live, and links to its rules page and, where the deployment lets the page create
// games, to start one; then the lists of live and recent games of every game, filterable.
// A rules page (`#/rules/<key>`) shows the game's rules from the project's manual
// (docs/games/<key>.md), its statistics, and its own live and recent games.

import { ConnectError } from "@connectrpc/connect";

import { client } from "./api.js";
import { deployment } from "./deployment.js";
import { h } from "./dom.js";
import { FAMILIES, GAMES, type GameInfo, gameInfo } from "./games.js";
import { GameStatus, type VariantStats } from "./gen/chessd/v1/chessd_pb.js";
import { followGames, gameLists } from "./list.js";
import { renderMarkdown } from "./markdown.js";
import { RULES } from "./rulestext.js";
import { statsText } from "./stats.js";

/** The statistics of every game by key, or null when GetStats is refused or unreachable. */
async function loadStats(signal: AbortSignal): Promise<Map<string, VariantStats> | string> {
  try {
    const r = await client.getStats({}, { signal });
    return new Map(r.variants.map((v) => [v.variantKey || String(v.variant), v]));
  } catch (e) {
    return ConnectError.from(e).rawMessage;
  }
}

function statsOf(stats: Map<string, VariantStats>, g: GameInfo): VariantStats | undefined {
  return stats.get(g.key) ?? (g.variant ? stats.get(String(g.variant)) : undefined);
}

function gameCard(g: GameInfo): HTMLElement {
  return h(
    "li",
    { class: "game-card", "data-game": g.key },
    h("h3", {}, h("a", { href: `#/rules/${g.key}` }, g.name)),
    h("p", { class: "summary" }, g.summary),
    h("p", { class: "stats", "data-stats": g.key }, "…"),
    h(
      "p",
      { class: "card-links" },
      h("span", { class: "live-count", "data-live": g.key }, ""),
      h("a", { href: `#/rules/${g.key}`, class: "rules-link" }, "Rules"),
    ),
  );
}

/** Fills each card's statistics and live count; once, as the lobby opens. */
async function fillCards(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const [stats, live] = await Promise.all([
    loadStats(signal),
    client
      .listGames({ status: GameStatus.ONGOING, pageSize: 500 }, { signal })
      .then((r) => r.games)
      .catch(() => null),
  ]);
  if (signal.aborted) return;
  for (const g of GAMES) {
    const s = root.querySelector<HTMLElement>(`[data-stats="${g.key}"]`);
    if (s)
      s.textContent =
        typeof stats === "string" ? "Statistics unavailable" : statsText(statsOf(stats, g));
    const l = root.querySelector<HTMLElement>(`[data-live="${g.key}"]`);
    const n = live?.filter((x) => (x.variantKey || gameInfo(x.variant)?.key) === g.key).length ?? 0;
    if (l) l.textContent = live ? (n ? `${n} live` : "") : "";
  }
}

/** Each card's "Play" link, where the deployment lets the page start games. */
async function addPlayLinks(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const d = await deployment();
  if (signal.aborted || !d.create) return;
  for (const g of GAMES) {
    root
      .querySelector(`[data-game="${g.key}"] .card-links`)
      ?.prepend(h("a", { href: `#/new/${g.key}`, class: "play-link" }, "Play"));
  }
}

export function showLobby(main: HTMLElement, signal: AbortSignal): void {
  document.title = "chessd · games";
  const families = FAMILIES.map((family) =>
    h(
      "section",
      { class: "family" },
      h("h2", {}, family),
      h("ul", { class: "game-cards" }, ...GAMES.filter((g) => g.family === family).map(gameCard)),
    ),
  );
  const lobby = h("div", { class: "lobby", id: "lobby" }, ...families);
  main.append(lobby, gameLists(signal));
  void fillCards(lobby, signal);
  void addPlayLinks(lobby, signal);
}

export function showRules(main: HTMLElement, key: string, signal: AbortSignal): void {
  const g = gameInfo(key);
  if (!g) {
    document.title = "chessd · no such game";
    main.append(
      h("p", { class: "note" }, `chessd plays no game called “${key}”. `, h("a", { href: "#/" }, "All games")),
    );
    return;
  }
  document.title = `chessd · ${g.name} rules`;
  const text = RULES[g.key];
  const body = text ? renderMarkdown(text) : [h("h2", {}, g.name), h("p", {}, g.summary)];
  const stats = h("p", { class: "stats", id: "rules-stats" }, "…");
  const live = h("ul", { id: "rules-live", class: "games" });
  const recent = h("ul", { id: "rules-recent", class: "games" });
  const note = h("p", { class: "note", role: "status" });
  main.append(
    h("p", { class: "crumbs" }, h("a", { href: "#/" }, "All games"), ` · ${g.family}`),
    h("article", { class: "rules", id: "rules", "data-game": g.key }, ...body),
    h("h2", {}, "Statistics"),
    stats,
    h("h2", {}, `Live ${g.name} games`),
    live,
    h("h2", {}, `Recent ${g.name} games`),
    recent,
    note,
  );
  void loadStats(signal).then((s) => {
    if (signal.aborted) return;
    stats.textContent =
      typeof s === "string" ? `Statistics unavailable: ${s}` : statsText(statsOf(s, g));
  });
  void followGames(live, recent, note, () => ({ variantKey: g.key }), signal);
}
