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
  if (game?.[1]) {
    const id = game[1];
    void showGame(main, id, current.signal, takeSeat(id, game[2] ?? ""));
  } else if (fresh?.[1]) {
    void showNewGame(main, fresh[1], current.signal);
  } else if (rules?.[1]) {
    showRules(main, rules[1], current.signal);
    window.scrollTo(0, 0);
  } else {
    showLobby(main, current.signal);
  }
}

window.addEventListener("hashchange", route);
route();
