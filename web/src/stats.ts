// A game's statistics in words (GetStats' VariantStats), for the lobby and the rules pages.

import type { VariantStats } from "./gen/chessd/v1/chessd_pb.js";

/** "42 finished · White 45% · Black 40% · drawn 14%", or "No finished game yet". */
export function statsText(s: VariantStats | undefined): string {
  const n = Number(s?.finishedGames ?? 0n);
  if (!s || n === 0) return "No finished game yet";
  const pct = (x: bigint) => `${Math.round((Number(x) / n) * 100)}%`;
  return (
    `${n} finished · White ${pct(s.whiteWins)} · Black ${pct(s.blackWins)} · ` +
    `drawn ${pct(s.draws)}`
  );
}
