// The page's entry: routes the URL fragment to the lobby (`#/`), a game's rules
// (`#/rules/<key>`), a new game (`#/new/<key>`, where the deployment allows it) or a game (`#/game/<id>`, with `?seat=<token>` for a player; see seat.ts),
// over gRPC-Web to the chessd that served the page.

import { showGame } from "./game.js";
import { showLobby, showRules } from "./lobby.js";
import { showNewGame } from "./newgame.js";
import { takeSeat } from "./seat.js";

const main = document.getElementById("main") as HTMLElement;

let current: AbortController | null = null;

function route(): void {
  current?.abort();
  current = new AbortController();
  const game = /^#\/game\/([0-9A-Za-z]+)(?:\?(.*))?$/.exec(location.hash);
  const rules = /^#\/rules\/([a-z0-9]+)$/.exec(location.hash);
  const fresh = /^#\/new\/([a-z0-9]+)$/.exec(location.hash);
  main.replaceChildren();
  // A view opens at its top: the window's offset belongs to the page left (a lobby scrolled
  // down on a phone), and a hash change keeps it, which would open a game with its board
  // half out of sight.
  window.scrollTo(0, 0);
  if (game?.[1]) {
    const id = game[1];
    void showGame(main, id, current.signal, takeSeat(id, game[2] ?? ""));
  } else if (fresh?.[1]) {
    void showNewGame(main, fresh[1], current.signal);
  } else if (rules?.[1]) {
    showRules(main, rules[1], current.signal);
  } else {
    showLobby(main, current.signal);
  }
}

window.addEventListener("hashchange", route);
route();
