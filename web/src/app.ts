// The page's entry: routes the URL fragment to the game list (`#/`) or a game
// (`#/game/<id>`, with `?seat=<token>` for a player; see seat.ts), over gRPC-Web to the chessd
// that served the page.

import { showGame } from "./game.js";
import { showList } from "./list.js";
import { takeSeat } from "./seat.js";

const main = document.getElementById("main") as HTMLElement;

let current: AbortController | null = null;

function route(): void {
  current?.abort();
  current = new AbortController();
  const match = /^#\/game\/([0-9A-Za-z]+)(?:\?(.*))?$/.exec(location.hash);
  main.replaceChildren();
  if (match?.[1]) {
    const id = match[1];
    void showGame(main, id, current.signal, takeSeat(id, match[2] ?? ""));
  } else {
    void showList(main, current.signal);
  }
}

window.addEventListener("hashchange", route);
route();
