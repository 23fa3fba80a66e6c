// The player's buttons besides moves: a secret setup's placement (Screen Chess: drawn at
// random, cleared, sent as a draft or final; placed by hand on the board, setup.ts), abort, draw
// offers and answers, draw claims, takeback proposals and answers, time given to the opponent,
// the claim of a game the opponent left, resign. Each is a row of `ACTIONS` saying when it
// applies; the bar shows exactly the rows that apply to the game as the stream last showed it
// (the server decides; a refusal is said in words).

import { h } from "./dom.js";
import { Color, DrawClaim, GameStatus, TakebackPolicy } from "./gen/chessd/v1/chessd_pb.js";
import { refusal, refusalText } from "./refusal.js";
import { type LocalPlacement, mustPlace, randomHalf } from "./setup.js";
import type { Seat } from "./seat.js";
import {
  type GameState,
  claimableDraws,
  moverOf,
  plyOf,
  presenceOf,
  turnOf,
} from "./state.js";
import { opponent } from "./text.js";

/** What an action's rule looks at. */
export interface ActionView {
  state: GameState;
  /** The seat's side. */
  color: Color;
  /** The server's time now, ms since the epoch. */
  serverNow: number;
  /** The seat's placement being built on the page (a secret setup), or null. */
  placement: LocalPlacement | null;
}

interface Action {
  id: string;
  label: string;
  /** Asked first; the action is sent only on "yes". */
  confirm?: { question: string; yes: string };
  applies(v: ActionView): boolean;
  run(seat: Seat, signal: AbortSignal, v: ActionView): Promise<unknown>;
  /** Said once the server took it (the stream shows the rest). */
  done: string;
}

const ongoing = (v: ActionView) => v.state.status === GameStatus.ONGOING;
/** The seat has its placement to make final, on the page. */
const placing = (v: ActionView) =>
  ongoing(v) && !!v.placement && mustPlace(v.state.setup, v.color);
const claimable = (v: ActionView, claim: DrawClaim) =>
  ongoing(v) && turnOf(v.state) === v.color && claimableDraws(v.state).includes(claim);

/** Whether the seat has a move of its own on the board (what a takeback takes back). */
const hasMoved = (v: ActionView) => {
  const n = plyOf(v.state);
  return n >= 2 || (n === 1 && moverOf(v.state, 1) === v.color);
};
const takebacks = (v: ActionView) =>
  ongoing(v) && v.state.takebacks === TakebackPolicy.ON_REQUEST;
/** The opponent is gone and to move, and its grace period is over. */
const claimableWin = (v: ActionView) => {
  if (!ongoing(v) || turnOf(v.state) !== opponent(v.color)) return false;
  const p = presenceOf(v.state, opponent(v.color));
  return !!p && !p.connected && p.claimAt !== null && v.serverNow >= p.claimAt;
};

const ACTIONS: Action[] = [
  {
    id: "place-random",
    label: "Place my army at random",
    applies: (v) => placing(v),
    // Drawn on the page, not sent: the player may change it by hand before sending it.
    run: async (_seat, _signal, v) => v.placement?.fill(randomHalf(v.color)),
    done: "Placed at random on your half: change it by hand, then send it.",
  },
  {
    id: "place-clear",
    label: "Put all back in the tray",
    applies: (v) => placing(v) && !!v.placement?.started,
    run: async (_seat, _signal, v) => v.placement?.clear(),
    done: "All your pieces are back in the tray.",
  },
  {
    id: "place-draft",
    label: "Send as draft",
    applies: (v) => placing(v) && !!v.placement?.rows(),
    run: (seat, signal, v) => seat.submitSetup(v.placement?.rows() ?? "", false, signal),
    done: "Sent as a draft: only you see it. Change it and send again, or make it final.",
  },
  {
    id: "place-final",
    label: "Make my placement final",
    confirm: { question: "Make this placement final? It cannot change.", yes: "Yes, make it final" },
    applies: (v) => placing(v) && !!v.placement?.rows(),
    run: (seat, signal, v) => seat.submitSetup(v.placement?.rows() ?? "", true, signal),
    done: "Your placement is final: the game starts when both are.",
  },
  {
    id: "abort",
    label: "Abort game",
    // The server allows it until both sides have moved.
    applies: (v) => ongoing(v) && plyOf(v.state) < 2,
    run: (seat, signal) => seat.abort(signal),
    done: "Game aborted.",
  },
  {
    id: "offer-draw",
    label: "Offer draw",
    applies: (v) => ongoing(v) && v.state.drawOffer === Color.UNSPECIFIED,
    run: (seat, signal) => seat.offerDraw(signal),
    done: "Draw offered.",
  },
  {
    id: "accept-draw",
    label: "Accept draw",
    applies: (v) => ongoing(v) && v.state.drawOffer === opponent(v.color),
    run: (seat, signal) => seat.respondToDraw(true, signal),
    done: "Draw accepted.",
  },
  {
    id: "decline-draw",
    label: "Decline draw",
    applies: (v) => ongoing(v) && v.state.drawOffer === opponent(v.color),
    run: (seat, signal) => seat.respondToDraw(false, signal),
    done: "Draw declined.",
  },
  {
    id: "claim-threefold",
    label: "Claim draw: threefold repetition",
    applies: (v) => claimable(v, DrawClaim.THREEFOLD_REPETITION),
    run: (seat, signal) => seat.claimDraw(DrawClaim.THREEFOLD_REPETITION, signal),
    done: "Draw claimed.",
  },
  {
    id: "claim-fifty",
    label: "Claim draw: fifty-move rule",
    applies: (v) => claimable(v, DrawClaim.FIFTY_MOVES),
    run: (seat, signal) => seat.claimDraw(DrawClaim.FIFTY_MOVES, signal),
    done: "Draw claimed.",
  },
  {
    id: "propose-takeback",
    label: "Propose takeback",
    applies: (v) => takebacks(v) && v.state.takebackOffer === Color.UNSPECIFIED && hasMoved(v),
    run: (seat, signal) => seat.proposeTakeback(signal),
    done: "Takeback proposed.",
  },
  {
    id: "accept-takeback",
    label: "Accept takeback",
    applies: (v) => takebacks(v) && v.state.takebackOffer === opponent(v.color),
    run: (seat, signal) => seat.respondToTakeback(true, signal),
    done: "Takeback accepted.",
  },
  {
    id: "decline-takeback",
    label: "Decline takeback",
    applies: (v) => takebacks(v) && v.state.takebackOffer === opponent(v.color),
    run: (seat, signal) => seat.respondToTakeback(false, signal),
    done: "Takeback declined.",
  },
  {
    id: "withdraw-takeback",
    label: "Withdraw takeback",
    applies: (v) => takebacks(v) && v.state.takebackOffer === v.color,
    run: (seat, signal) => seat.withdrawTakeback(signal),
    done: "Takeback withdrawn.",
  },
  {
    id: "add-time",
    label: "Give 15 seconds",
    applies: (v) => ongoing(v) && v.state.clocks !== null,
    run: (seat, signal) => seat.addTime(signal),
    done: "15 seconds given.",
  },
  {
    id: "claim-victory",
    label: "Claim victory",
    confirm: { question: "Your opponent left. End the game as a win?", yes: "Yes, claim the win" },
    applies: claimableWin,
    run: (seat, signal) => seat.claimVictory(false, signal),
    done: "Victory claimed.",
  },
  {
    id: "claim-abandoned-draw",
    label: "Call it a draw",
    applies: claimableWin,
    run: (seat, signal) => seat.claimVictory(true, signal),
    done: "Draw claimed.",
  },
  {
    id: "resign",
    label: "Resign",
    confirm: { question: "Resign this game?", yes: "Yes, resign" },
    applies: ongoing,
    run: (seat, signal) => seat.resign(signal),
    done: "You resigned.",
  },
];

export class ActionBar {
  readonly element = h("div", {
    id: "actions",
    class: "actions",
    role: "group",
    "aria-label": "Game actions",
  });
  #seat: Seat;
  #signal: AbortSignal;
  #say: (text: string) => void;
  #view: ActionView | null = null;
  #confirming: Action | null = null;
  #busy: Action | null = null;
  /** What the bar shows, to redraw only when it changes (a redraw would take the focus). */
  #shown = "";

  constructor(seat: Seat, signal: AbortSignal, say: (text: string) => void) {
    this.#seat = seat;
    this.#signal = signal;
    this.#say = say;
  }

  /** Shows the actions that apply to `view` (none while the seat's side is unknown). */
  update(view: ActionView | null): void {
    this.#view = view;
    const applying = view ? ACTIONS.filter((a) => a.applies(view)) : [];
    if (this.#confirming && !applying.includes(this.#confirming)) this.#confirming = null;
    const key = `${applying.map((a) => a.id).join()}|${this.#confirming?.id}|${this.#busy?.id}`;
    if (key === this.#shown) return;
    this.#shown = key;
    const confirming = this.#confirming;
    if (confirming?.confirm) {
      const yes = h(
        "button",
        { type: "button", "data-action": `${confirming.id}-yes`, class: "danger" },
        confirming.confirm.yes,
      );
      const no = h("button", { type: "button", "data-action": `${confirming.id}-no` }, "Cancel");
      yes.addEventListener("click", () => void this.#run(confirming));
      no.addEventListener("click", () => {
        this.#confirming = null;
        this.update(this.#view);
        this.element.querySelector<HTMLButtonElement>(`[data-action="${confirming.id}"]`)?.focus();
      });
      this.element.replaceChildren(
        h("span", { class: "question" }, confirming.confirm.question),
        yes,
        no,
      );
      no.focus();
      return;
    }
    this.element.replaceChildren(
      ...applying.map((a) => {
        const b = h("button", { type: "button", "data-action": a.id }, a.label);
        if (this.#busy) b.disabled = true;
        b.addEventListener("click", () => {
          if (a.confirm) {
            this.#confirming = a;
            this.update(this.#view);
          } else {
            void this.#run(a);
          }
        });
        return b;
      }),
    );
  }

  async #run(a: Action): Promise<void> {
    const view = this.#view;
    if (!view) return;
    this.#confirming = null;
    this.#busy = a;
    this.update(this.#view);
    try {
      await a.run(this.#seat, this.#signal, view);
      this.#say(a.done);
    } catch (e) {
      if (!this.#signal.aborted) this.#say(refusalText(refusal(e)));
    } finally {
      this.#busy = null;
      this.update(this.#view);
    }
  }
}
