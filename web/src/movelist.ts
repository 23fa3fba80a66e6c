// The move list: one button per ply to step to (a roving tab stop on the ply shown), and the
// player's move the server has not shown yet, which cannot be stepped to; the list's own box
// keeps the latest move in sight.

import { h } from "./dom.js";
import { moveLabel } from "./text.js";

/** Fills `list` with `sans` (ply i + 1 at index i), `at` being the ply shown. */
export function renderMoves(
  list: HTMLElement,
  sans: readonly string[],
  at: number,
  pendingSan: string | null,
): void {
  const all = pendingSan === null ? sans : [...sans, pendingSan];
  const items: HTMLElement[] = [];
  for (let i = 0; i < all.length; i += 2) {
    const row = h("li", { value: String(i / 2 + 1) });
    for (const ply of [i + 1, i + 2]) {
      const san = all[ply - 1];
      if (san === undefined) continue;
      if (ply > sans.length) {
        row.append(h("span", { class: "pending", title: "Waiting for the server" }, san));
        continue;
      }
      const b = h(
        "button",
        {
          type: "button",
          "data-ply": String(ply),
          "aria-label": moveLabel(ply, san),
          tabindex: ply === at || (at === 0 && ply === 1) ? "0" : "-1",
        },
        san,
      );
      if (ply === at) b.setAttribute("aria-current", "step");
      row.append(b);
    }
    items.push(row);
  }
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren(...items);
  if (hadFocus) list.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
}

/**
 * Scrolls `list`'s own box to its last row. Not `scrollIntoView`, which scrolls the window too:
 * at phone width the list is below the board, so the page would open scrolled past the board.
 */
export function showLatest(list: HTMLElement): void {
  list.scrollTop = list.scrollHeight;
}
