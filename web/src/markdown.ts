// The rules pages' Markdown (docs/games/<key>.md, bundled as text) turned into elements: the small
// subset those files use, headings, paragraphs, bullet lists, tables (xiangqi's and shogi's
// pieces), **bold**, `code` and links to another game's rules. Built with DOM calls, never
// innerHTML, so the text can hold nothing that runs; a link to anything but another rules page
// keeps its text and loses its target, as the page fetches nothing from elsewhere.

import { h } from "./dom.js";

/** The inline marks of one line of text. */
function inline(text: string): (Node | string)[] {
  const out: (Node | string)[] = [];
  const re = /\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    out.push(text.slice(last, m.index));
    last = (m.index ?? 0) + m[0].length;
    if (m[1] !== undefined) out.push(h("strong", {}, m[1]));
    else if (m[2] !== undefined) out.push(h("code", {}, m[2]));
    else if (m[3] !== undefined) {
      const rules = /^([a-z0-9]+)\.md$/.exec(m[4] ?? "");
      out.push(rules?.[1] ? h("a", { href: `#/rules/${rules[1]}` }, m[3]) : m[3]);
    }
  }
  out.push(text.slice(last));
  return out.filter((x) => x !== "");
}

/** A table's cells in one `| a | b |` line. */
const cells = (line: string) =>
  line
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());

/** A table from its lines: the header, the `| --- |` rule, then the rows. */
function table(lines: string[]): HTMLElement {
  const [head = "", , ...rows] = lines;
  const row = (line: string, tag: "th" | "td") =>
    h("tr", {}, ...cells(line).map((c) => h(tag, {}, ...inline(c))));
  return h(
    "table",
    {},
    h("thead", {}, row(head, "th")),
    h("tbody", {}, ...rows.map((r) => row(r, "td"))),
  );
}

/**
 * The elements of a Markdown text: `# ` and `## ` headings (drawn one level lower, under the
 * page's own), paragraphs of consecutive lines, `- ` lists whose items continue on indented
 * lines, and tables of `|` lines with a header.
 */
export function renderMarkdown(text: string): HTMLElement[] {
  const out: HTMLElement[] = [];
  let para: string[] = [];
  let list: HTMLUListElement | null = null;
  let item: string[] | null = null;
  let rows: string[] = [];
  const flushItem = () => {
    if (item && list) list.append(h("li", {}, ...inline(item.join(" "))));
    item = null;
  };
  const flush = () => {
    if (para.length) out.push(h("p", {}, ...inline(para.join(" "))));
    para = [];
    if (rows.length) out.push(table(rows));
    rows = [];
    flushItem();
    if (list) out.push(list);
    list = null;
  };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading?.[1] && heading[2] !== undefined) {
      flush();
      const level = Math.min(heading[1].length + 1, 4);
      out.push(h(`h${level}` as "h2", {}, ...inline(heading[2])));
    } else if (line === "") {
      flush();
    } else if (line.startsWith("|") && (rows.length || (!para.length && !list))) {
      rows.push(line);
    } else if (line.startsWith("- ")) {
      if (para.length) flush();
      flushItem();
      list ??= h("ul", {});
      item = [line.slice(2)];
    } else if (item && /^\s/.test(raw)) {
      item.push(line.trim());
    } else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out;
}
