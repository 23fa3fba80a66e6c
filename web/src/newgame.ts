// Starting a game from the page (`#/new/<key>`), where the deployment allows it (`--page-create`,
// see deployment.ts): the player picks a time control among those offered, a side (or a random
// one) and their name, and plays a friend or, where the deployment offers one, its computer
// opponent (the other seat bound to the bot's player id: its chessd-bot finds the game). CreateGame goes without an API key; the server holds
// such a creation to the shape the page sends (docs/web.md). Once created, the page shows the
// friend's seat link to send them and a button to the player's own seat, whose link goes the
// usual way (seat.ts: out of the address bar into this tab's storage).

import { client } from "./api.js";
import { deployment, timeControlName, timeControlOf } from "./deployment.js";
import { h } from "./dom.js";
import { gameInfo } from "./games.js";
import { refusal, refusalText } from "./refusal.js";

/** A fresh request id: a retry of the same click creates one game, not two. */
function requestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The address of a seat link on this page. */
function seatLink(gameId: string, token: string): string {
  return `${location.origin}${location.pathname}#/game/${gameId}?seat=${token}`;
}

export async function showNewGame(main: HTMLElement, key: string, signal: AbortSignal): Promise<void> {
  const g = gameInfo(key);
  const back = h("p", { class: "crumbs" }, h("a", { href: "#/" }, "All games"));
  if (!g) {
    main.append(back, h("p", { class: "note" }, `chessd plays no game called “${key}”.`));
    return;
  }
  document.title = `chessd · new ${g.name} game`;
  const d = await deployment();
  if (signal.aborted) return;
  if (!d.create) {
    main.append(
      back,
      h("p", { class: "note", id: "new-off" }, "This server does not start games from the page: games here are created by the platform that runs it."),
    );
    return;
  }
  const time = h(
    "select",
    { id: "new-time", name: "time" },
    ...d.create.timeControls.map((t) => h("option", { value: t }, timeControlName(t))),
  );
  const side = h(
    "select",
    { id: "new-side", name: "side" },
    h("option", { value: "white" }, "White"),
    h("option", { value: "black" }, "Black"),
    h("option", { value: "random" }, "Random"),
  );
  const name = h("input", { id: "new-name", name: "name", maxlength: "40", autocomplete: "nickname", placeholder: "optional" });
  const opponent = h(
    "select",
    { id: "new-opponent", name: "opponent" },
    h("option", { value: "friend" }, "A friend, with a link"),
    ...(d.create.bot ? [h("option", { value: "bot" }, `The computer (${d.create.bot})`)] : []),
  );
  const submit = h("button", { type: "submit", id: "new-create" }, "Create the game");
  const status = h("p", { class: "note", role: "status", id: "new-status" });
  const field = (id: string, label: string, input: HTMLElement) =>
    h("p", { class: "field" }, h("label", { for: id }, label), input);
  const form = h(
    "form",
    { class: "new-game", id: "new-game" },
    field("new-time", "Time control", time),
    field("new-side", "You play", side),
    field("new-name", "Your name", name),
    field("new-opponent", "Opponent", opponent),
    submit,
    status,
  );
  const result = h("section", { id: "new-result", class: "new-result" });
  main.append(
    back,
    h("h2", {}, `New ${g.name} game`),
    h("p", { class: "summary" }, g.summary, " ", h("a", { href: `#/rules/${g.key}` }, "Rules")),
    form,
    result,
  );
  const id = requestId();
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void (async () => {
      submit.disabled = true;
      status.textContent = "Creating the game…";
      const white =
        side.value === "random" ? crypto.getRandomValues(new Uint8Array(1))[0]! % 2 === 0 : side.value === "white";
      const tc = timeControlOf(time.value);
      const me = name.value.trim();
      const bot = opponent.value === "bot" ? d.create?.bot ?? null : null;
      const them = bot ?? "";
      try {
        const created = await client.createGame(
          {
            variantKey: g.key,
            timeControl: tc
              ? tc.periods
                ? {
                    initial: { seconds: BigInt(tc.minutes * 60) },
                    byoyomi: { seconds: BigInt(tc.seconds) },
                    periods: tc.periods,
                  }
                : { initial: { seconds: BigInt(tc.minutes * 60) }, increment: { seconds: BigInt(tc.seconds) } }
              : undefined,
            whitePlayer: white ? me : them,
            blackPlayer: white ? them : me,
            whitePlayerId: !white && bot ? bot : "",
            blackPlayerId: white && bot ? bot : "",
            requestId: id,
          },
          { signal },
        );
        const gameId = created.game?.gameId ?? "";
        const mine = white ? created.whiteToken : created.blackToken;
        const theirs = white ? created.blackToken : created.whiteToken;
        const friend = h("input", {
          id: "friend-link",
          readonly: "",
          value: seatLink(gameId, theirs),
          "aria-label": "Your friend's link",
        });
        const copy = h("button", { type: "button", id: "copy-link" }, "Copy");
        copy.addEventListener("click", () => {
          friend.select();
          void navigator.clipboard?.writeText(friend.value).then(
            () => (copy.textContent = "Copied"),
            () => (copy.textContent = "Select and copy it"),
          );
        });
        // The player's own link is followed, never written into the page: seat.ts takes the
        // token out of the address at once.
        const play = h("button", { type: "button", id: "play-own" }, `Play as ${white ? "White" : "Black"}`);
        play.addEventListener("click", () => {
          location.hash = `#/game/${gameId}?seat=${mine}`;
        });
        form.hidden = true;
        status.textContent = "";
        if (bot) {
          result.replaceChildren(
            h("h3", {}, "Your game is ready"),
            h("p", { id: "bot-note" }, `${bot} plays ${white ? "Black" : "White"}: it joins the game by itself.`),
            h("p", {}, play),
          );
          return;
        }
        result.replaceChildren(
          h("h3", {}, "Your game is ready"),
          h(
            "p",
            {},
            `Send this link to your friend: it lets them play ${white ? "Black" : "White"}. `,
            "Whoever has it can play that side, so send it to them alone.",
          ),
          h("p", { class: "friend-link" }, friend, copy),
          h("p", {}, play),
        );
      } catch (err) {
        if (signal.aborted) return;
        submit.disabled = false;
        status.textContent = refusalText(refusal(err));
      }
    })();
  });
}
