// The players' entropy on a seated page (a game created with player_entropy): the page takes
// the seat's part by itself. Its secret, 32 bytes from crypto.getRandomValues, is kept in this
// tab's sessionStorage per game and seat (a reload keeps it: the commitment already sent can
// then still be revealed), its SHA-256 sent as the commitment, the secret once both seats have
// committed. Retries are safe: the server answers the same value again as the first time.

import { Color, type Entropy, EntropyPhase } from "./gen/chessd/v1/chessd_pb.js";
import type { Seat } from "./seat.js";

const storageKey = (gameId: string, color: Color) =>
  `chessd-entropy:${gameId}:${color === Color.WHITE ? "w" : "b"}`;

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

const unhex = (text: string) =>
  new Uint8Array((text.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16)));

/** The seat's secret for the game, made and kept on first use. */
function secretOf(gameId: string, color: Color): string {
  const kept = sessionStorage.getItem(storageKey(gameId, color));
  if (kept && /^[0-9a-f]{64}$/.test(kept)) return kept;
  const fresh = hex(crypto.getRandomValues(new Uint8Array(32)));
  sessionStorage.setItem(storageKey(gameId, color), fresh);
  return fresh;
}

/** What the round waits for, in a line for the page; "" once it is done (and in other games). */
export function entropyNote(entropy: Entropy | null, color: Color | null): string {
  if (!entropy || entropy.phase === EntropyPhase.DONE) return "";
  const own = color === Color.WHITE ? entropy.whiteCommitment : entropy.blackCommitment;
  if (entropy.phase === EntropyPhase.COMMITMENTS) {
    return color !== null && own
      ? "Your entropy is committed: waiting for your opponent's commitment"
      : "The players are committing to their entropy: play begins when both secrets are revealed";
  }
  return "Both committed: the players' secrets are being revealed";
}

/**
 * Sends the seat's next part of the round as it stands: its commitment while it has none, its
 * secret once both are in. Resolves with a line for the page when it could not (no secure
 * context for SHA-256, or a secret lost with another tab), or "".
 */
export async function takePart(
  seat: Seat,
  gameId: string,
  color: Color,
  entropy: Entropy,
  signal: AbortSignal,
): Promise<string> {
  const own = color === Color.WHITE ? entropy.whiteCommitment : entropy.blackCommitment;
  if (entropy.phase === EntropyPhase.COMMITMENTS && !own) {
    if (!crypto.subtle) return "This page needs https (or localhost) to add your entropy";
    const secret = secretOf(gameId, color);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", unhex(secret)));
    await seat.submitEntropy(hex(digest), "", signal);
    return "";
  }
  if (entropy.phase === EntropyPhase.REVEALS) {
    const kept = sessionStorage.getItem(storageKey(gameId, color));
    if (!kept) return "Your secret was committed from another tab: reveal it there";
    await seat.submitEntropy("", kept, signal);
  }
  return "";
}
