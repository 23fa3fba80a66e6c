// What this deployment lets the page do, from the server's `/config.json` (same origin, read
// once per page load): whether games may be started from the page (`--page-create`), with
// which time controls, and the computer opponent it offers (`--page-create-bot`). A server that does not answer it (an older chessd) offers nothing.

export interface Deployment {
  /**
   * Starting games from the page: the time controls offered ("5+3", "untimed") and the
   * computer opponent's player id (null: none); null: off.
   */
  create: { timeControls: string[]; bot: string | null } | null;
}

let loaded: Promise<Deployment> | null = null;

function parse(json: unknown): Deployment {
  const create = (json as { create?: { timeControls?: unknown; bot?: unknown } } | null)?.create;
  const list = create?.timeControls;
  if (!Array.isArray(list)) return { create: null };
  const timeControls = list.filter(
    (t): t is string => typeof t === "string" && /^(untimed|\d+\+\d+)$/.test(t),
  );
  const bot = typeof create?.bot === "string" && /^[\w.-]{1,64}$/.test(create.bot) ? create.bot : null;
  return { create: timeControls.length ? { timeControls, bot } : null };
}

export function deployment(): Promise<Deployment> {
  loaded ??= fetch("/config.json", { cache: "no-cache" })
    .then((r) => (r.ok ? r.json() : null))
    .then(parse)
    .catch(() => ({ create: null }));
  return loaded;
}

/** "5+3" as minutes and seconds; null for "untimed". */
export function timeControlOf(text: string): { minutes: number; seconds: number } | null {
  const m = /^(\d+)\+(\d+)$/.exec(text);
  return m ? { minutes: Number(m[1]), seconds: Number(m[2]) } : null;
}

/** "5 min + 3 s", "Untimed". */
export function timeControlName(text: string): string {
  const t = timeControlOf(text);
  return t ? `${t.minutes} min + ${t.seconds} s` : "Untimed";
}
