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
    (t): t is string => typeof t === "string" && (t === "untimed" || timeControlOf(t) !== null),
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

/** A time control the page offers: minutes of (main) time, then an increment or byoyomi. */
export interface OfferedTime {
  minutes: number;
  /** The increment, or with `periods` the byoyomi period, in seconds. */
  seconds: number;
  /** Byoyomi periods (0: a Fischer clock). */
  periods: number;
}

/** "5+3" (Fischer), "10+30b" or "10+3x30b" (byoyomi); null for "untimed" and anything else. */
export function timeControlOf(text: string): OfferedTime | null {
  const m = /^(\d+)\+(?:(\d+)x)?(\d+)(b?)$/.exec(text);
  if (!m || (m[2] !== undefined && !m[4])) return null;
  const periods = m[4] ? Number(m[2] ?? 1) : 0;
  return { minutes: Number(m[1]), seconds: Number(m[3]), periods };
}

/** "5 min + 3 s", "10 min + 3 × 30 s byoyomi", "Untimed". */
export function timeControlName(text: string): string {
  const t = timeControlOf(text);
  if (!t) return "Untimed";
  if (!t.periods) return `${t.minutes} min + ${t.seconds} s`;
  const times = t.periods > 1 ? `${t.periods} × ` : "";
  return `${t.minutes} min + ${times}${t.seconds} s byoyomi`;
}
