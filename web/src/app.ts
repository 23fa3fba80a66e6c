// The page's entry: routes the URL fragment to the lobby (`#/`), a game's rules
// (`#/rules/<key>`) or a game (`#/game/<id>`, with `?seat=<token>` for a player; see seat.ts),
// over gRPC-Web to the chessd that served the page.

import { showGame } from "./game.js";
import { showLobby, showRules } from "./lobby.js";
import { takeSeat } from "./seat.js";

const main = document.getElementById("main") as HTMLElement;

let current: AbortController | null = null;

function route(): void {
  current?.abort();
  current = new AbortController();
  const game = /^#\/game\/([0-9A-Za-z]+)(?:\?(.*))?$/.exec(location.hash);
  const rules = /^#\/rules\/([a-z0-9]+)$/.exec(location.hash);
  main.replaceChildren();
  if (game?.[1]) {
    const id = game[1];
    void showGame(main, id, current.signal, takeSeat(id, game[2] ?? ""));
  } else if (rules?.[1]) {
    showRules(main, rules[1], current.signal);
    window.scrollTo(0, 0);
  } else {
    showLobby(main, current.signal);
  }
}

window.addEventListener("hashchange", route);
route();
