// How the family scenarios end their games the way a player does, and what both pages must show
// once a game is over: a resignation clicked and confirmed on one page, a draw offered on one
// page and accepted on the other, and the check that each page shows the server's result line,
// its seat's outcome, and takes no further move (no playable board, no move form, no action).

import { fail, text, waitFor } from "./harness.js";
import { type Player, actions } from "./seats.js";
import { type Api, serverGame } from "./variantkit.js";

/** The loser's page resigns: the button, then its confirmation. */
export async function resign(loser: Player): Promise<void> {
  await loser.page.click('[data-action="resign"]');
  await waitFor(`${loser.name}: the question`, async () =>
    (await text(loser.page, "#actions")).startsWith("Resign this game?"),
  );
  await loser.page.click('[data-action="resign-yes"]');
}

/** `offerer`'s page offers a draw; `accepter`'s page sees the offer and accepts it. */
export async function agreeDraw(offerer: Player, accepter: Player): Promise<void> {
  await offerer.page.click('[data-action="offer-draw"]');
  await waitFor(`${accepter.name}: the offer to accept`, async () =>
    (await actions(accepter)).includes("accept-draw"),
  );
  await accepter.page.click('[data-action="accept-draw"]');
}

/**
 * The game `id` is over on the server with `result` on every page, each seat's line saying its
 * outcome ("you won", "you lost", "drawn"), and no page takes a move or offers an action.
 */
export async function expectEnded(
  api: Api,
  id: string,
  result: string,
  seats: [Player, "you won" | "you lost" | "drawn"][],
): Promise<void> {
  await waitFor("the game over on the server", async () => (await serverGame(api, id)).outcome);
  for (const [p, outcome] of seats) {
    let shown = "";
    await waitFor(`${p.name}: the result "${result}"`, async () => {
      shown = await text(p.page, "#result");
      return shown === result;
    }).catch(() => fail(`${p.name} shows the result "${shown}", not "${result}"`));
    await waitFor(`${p.name}: its seat's outcome`, async () =>
      (await text(p.page, "#seat")).endsWith(outcome),
    ).catch(async () => fail(`${p.name}'s seat line is "${await text(p.page, "#seat")}"`));
    await waitFor(`${p.name}: no move taken once over`, async () =>
      (await p.page.locator("#board.playable").count()) === 0 &&
      !(await p.page.locator("#move-form").isVisible()) &&
      (await actions(p)) === "",
    ).catch(async () => fail(`${p.name} still takes a move or offers "${await actions(p)}"`));
  }
}
