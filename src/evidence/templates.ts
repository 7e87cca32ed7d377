/**
 * Line templates (DESIGN.md §3a): a log line with what differs by nature between runs masked (timestamps,
 * durations, numbers, hex ids and hashes, UUIDs, paths, ports, temp names), so that "the same line" can
 * be counted. One implementation serves three users: rarity in the evidence finder, the bounded middle
 * of a huge log, and the diff against a passing log of the same job.
 */

/** A line longer than this is masked by its first part only: masking is per line and must stay cheap. */
export const TEMPLATE_MAX_CHARS = 512;

// Order matters: wider shapes first, so a timestamp is not eaten digit by digit.
const MASKS: readonly [RegExp, string][] = [
  [/\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?/g, '<ts>'],
  [/\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, '<hex>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // Temp names: /tmp/abc123, pytest-of-runner/pytest-12, tmp.XyZ12
  [/(?:\/tmp|\/var\/folders|\\Temp)[^\s'":]*/gi, '<tmp>'],
  // Durations: 12ms, 1.5s, 3m20s, (0.01 sec)
  [/\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|min|minutes?|h)\b/g, '<dur>'],
  // Paths: keep the shape (a path is there), drop which one; two components at least.
  [/(?:[A-Za-z]:)?(?:[\w.@+-]+)?(?:[\\/][\w.@+-]+){2,}/g, '<path>'],
  [/\d+/g, '0'],
];

/** `text` with numbers, ids, hashes, paths, durations, ports and timestamps masked; whitespace squeezed. */
export function lineTemplate(text: string): string {
  let t = text.length > TEMPLATE_MAX_CHARS ? text.slice(0, TEMPLATE_MAX_CHARS) : text;
  for (const [re, by] of MASKS) t = t.replace(re, by);
  return t.replace(/\s+/g, ' ').trim();
}

/**
 * A 32-bit FNV-1a hash of a template: what the counters and the passing-log diff keep instead of text.
 * `seed` picks an independent hash (FNV's offset basis by default): the passing-log diff checks a second
 * one so that millions of passing lines cannot collide with a failing line by chance.
 */
export function templateHash(template: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < template.length; i++) {
    h ^= template.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Counts templates in bounded memory: a count-min sketch (width × depth 32-bit cells), so a log of
 * any size, any number of distinct lines, costs the same few hundred KB. Counts are never under-
 * estimated; over-estimates are rare at the widths used here and only ever make a line look commoner.
 */
export class TemplateCounter {
  private readonly cells: Uint32Array;
  private readonly width: number;
  private readonly mask: number;
  private readonly depth: number;
  /** Lines counted. */
  total = 0;

  /** `width` is rounded up to a power of two: a cell index is then a mask, int32 all the way (it runs per line). */
  constructor(width = 1 << 16, depth = 4) {
    this.width = 2 ** Math.ceil(Math.log2(Math.max(2, width)));
    this.mask = this.width - 1;
    this.depth = depth;
    this.cells = new Uint32Array(this.width * depth);
  }

  /** Adds one occurrence of the template with this hash; returns its count so far (an upper bound). */
  add(hash: number): number {
    this.total++;
    // Double hashing: row i uses h1 + i·h2, from one 32-bit hash.
    const h1 = hash | 0;
    const h2 = Math.imul(h1 ^ (h1 >>> 16), 0x45d9f3b) | 1;
    let min = 0xffffffff;
    for (let r = 0; r < this.depth; r++) {
      const i = r * this.width + ((h1 + Math.imul(r, h2)) & this.mask);
      const v = this.cells[i]! + 1;
      if (v < 0xffffffff) this.cells[i] = v;
      if (v < min) min = v;
    }
    return min;
  }

  /** How often the template with this hash was added (an upper bound; 0 when never). */
  count(hash: number): number {
    const h1 = hash | 0;
    const h2 = Math.imul(h1 ^ (h1 >>> 16), 0x45d9f3b) | 1;
    let min = 0xffffffff;
    for (let r = 0; r < this.depth; r++) {
      const v = this.cells[r * this.width + ((h1 + Math.imul(r, h2)) & this.mask)]!;
      if (v < min) min = v;
    }
    return min;
  }
}

/** The template hash of a line's text: `templateHash(lineTemplate(text))`. */
export const lineKey = (text: string): number => templateHash(lineTemplate(text));

/** Raw bytes of a line hashed for its template key at most: past this a long line is known by its start. */
export const RAW_KEY_MAX_BYTES = 2048;

/** Every byte as itself, ASCII digits as `0` (a table lookup beats a branch per byte). */
const DIGITS_AS_ZERO = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x30 && b <= 0x39 ? 0x30 : b));

/** Where a raw line's text starts: past an Actions runner timestamp (`2026-11-29T10:15:00.1234567Z `), if any. */
export function afterActionsTimestamp(buf: Uint8Array, start: number, end: number): number {
  if (end - start > 21 && buf[start + 4] === 0x2d && buf[start + 10] === 0x54) {
    const stop = Math.min(end, start + 40);
    let j = start + 19;
    while (j < stop && buf[j] !== 0x20) j++;
    if (j < stop) return j + 1;
  }
  return start;
}

/**
 * A 32-bit FNV-1a hash of a raw log line's bytes with every ASCII digit read as `0`, the runner's
 * timestamp skipped. Two lines with the same raw key differ only in digit values, and lineTemplate
 * depends on where digits are, never on which digits (every mask treats `0`–`9` alike), so they have
 * the same template: the raw key refines lineKey, and a cache from one to the other is exact (up to
 * hash collisions and RAW_KEY_MAX_BYTES). Cheap enough to run on every error-looking line of a 1 GB log.
 */
export function rawLineKey(buf: Uint8Array, start: number, end: number): number {
  // `2026-11-29T10:15:00.1234567Z ` (Actions): its digits vary, its length barely; skip it.
  let i = afterActionsTimestamp(buf, start, end);
  const last = Math.min(end, i + RAW_KEY_MAX_BYTES);
  let h = 0x811c9dc5 | 0;
  for (; i < last; i++) h = Math.imul(h ^ DIGITS_AS_ZERO[buf[i]!]!, 0x01000193);
  return h >>> 0;
}

/**
 * Template keys of raw lines at memory speed: rawLineKey first, lineKey (decode, clean, mask) only the
 * first time a raw key is seen, remembered in a bounded map. A log whose every line is new past the
 * digits (hashes, names) would spend ~5 µs a line on masking: after `maxMisses` the raw key itself
 * stands in for the template (finer, so such lines only look rarer).
 */
export class RawTemplateKeys {
  private readonly known = new Map<number, number>();
  /** Lines masked through lineKey (cache misses). */
  misses = 0;
  /** Lines keyed by their raw key alone, the masking budget spent. */
  unmasked = 0;

  constructor(
    private readonly text: (buf: Uint8Array, start: number, end: number) => string,
    private readonly maxEntries = 1 << 16,
    private readonly maxMisses = 50_000,
  ) {}

  /** The template key of the raw line `buf[start, end)`. */
  keyOf(buf: Uint8Array, start: number, end: number): number {
    const raw = rawLineKey(buf, start, end);
    const hit = this.known.get(raw);
    if (hit !== undefined) return hit;
    if (this.misses >= this.maxMisses) {
      this.unmasked++;
      return raw;
    }
    this.misses++;
    const key = lineKey(this.text(buf, start, end));
    if (this.known.size >= this.maxEntries) this.known.clear();
    this.known.set(raw, key);
    return key;
  }
}
