// Each game's rules, as the project's rules manual writes them (docs/games/<key>.md), bundled
// into the page by esbuild so a rules page asks the server for nothing. A game added to
// games.ts without its file here shows its summary alone.

import amazon from "../../docs/games/amazon.md";
import antichess from "../../docs/games/antichess.md";
import atomic from "../../docs/games/atomic.md";
import berolina from "../../docs/games/berolina.md";
import bkhorde from "../../docs/games/bkhorde.md";
import capablanca from "../../docs/games/capablanca.md";
import caparandom from "../../docs/games/caparandom.md";
import chess from "../../docs/games/chess.md";
import chess960 from "../../docs/games/chess960.md";
import corner from "../../docs/games/corner.md";
import crazyhouse from "../../docs/games/crazyhouse.md";
import embassy from "../../docs/games/embassy.md";
import extinction from "../../docs/games/extinction.md";
import fortress from "../../docs/games/fortress.md";
import grand from "../../docs/games/grand.md";
import horde from "../../docs/games/horde.md";
import janus from "../../docs/games/janus.md";
import kingofthehill from "../../docs/games/kingofthehill.md";
import knightmate from "../../docs/games/knightmate.md";
import legan from "../../docs/games/legan.md";
import loop from "../../docs/games/loop.md";
import losalamos from "../../docs/games/losalamos.md";
import maharajah from "../../docs/games/maharajah.md";
import massacre from "../../docs/games/massacre.md";
import minishogi from "../../docs/games/minishogi.md";
import racingkings from "../../docs/games/racingkings.md";
import shogi from "../../docs/games/shogi.md";
import threecheck from "../../docs/games/threecheck.md";
import xiangqi from "../../docs/games/xiangqi.md";

export const RULES: Readonly<Record<string, string>> = {
  amazon,
  antichess,
  atomic,
  berolina,
  bkhorde,
  capablanca,
  caparandom,
  chess,
  chess960,
  corner,
  crazyhouse,
  embassy,
  extinction,
  fortress,
  grand,
  horde,
  janus,
  kingofthehill,
  knightmate,
  legan,
  loop,
  losalamos,
  maharajah,
  massacre,
  minishogi,
  racingkings,
  shogi,
  threecheck,
  xiangqi,
};
