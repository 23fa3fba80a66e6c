// Each game's rules, as the project's rules manual writes them (docs/games/<key>.md), bundled
// into the page by esbuild so a rules page asks the server for nothing. A game added to
// games.ts without its file here shows its summary alone.

import antichess from "../../docs/games/antichess.md";
import atomic from "../../docs/games/atomic.md";
import chess from "../../docs/games/chess.md";
import chess960 from "../../docs/games/chess960.md";
import crazyhouse from "../../docs/games/crazyhouse.md";
import horde from "../../docs/games/horde.md";
import kingofthehill from "../../docs/games/kingofthehill.md";
import racingkings from "../../docs/games/racingkings.md";
import threecheck from "../../docs/games/threecheck.md";

export const RULES: Readonly<Record<string, string>> = {
  antichess,
  atomic,
  chess,
  chess960,
  crazyhouse,
  horde,
  kingofthehill,
  racingkings,
  threecheck,
};
