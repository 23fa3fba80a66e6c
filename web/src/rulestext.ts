// Each game's rules, as the project's rules manual writes them (docs/games/<key>.md), bundled
// into the page by esbuild so a rules page asks the server for nothing. Every file present in
// docs/games/ when the page is built is bundled (esbuild reads the pattern below as a glob), so a
// game's rules page needs only its file; a game without one shows its summary alone.

import { GAMES } from "./games.js";

/** The bundled file of a game's rules, or undefined when the build found none. */
function bundled(key: string): string | undefined {
  try {
    return require(`../../docs/games/${key}.md`);
  } catch {
    return undefined;
  }
}

export const RULES: Readonly<Record<string, string>> = Object.fromEntries(
  GAMES.flatMap((g) => {
    const text = bundled(g.key);
    return text === undefined ? [] : [[g.key, text]];
  }),
);
