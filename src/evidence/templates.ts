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
  private readonly depth: number;
  /** Lines counted. */
  total = 0;

  constructor(width = 1 << 16, depth = 4) {
    this.width = width;
    this.depth = depth;
    this.cells = new Uint32Array(width * depth);
  }

  private index(hash: number, row: number): number {
    // Double hashing: row i uses h1 + i·h2, from one 32-bit hash.
    const h2 = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> 0 || 1;
    return row * this.width + ((hash + Math.imul(row, h2)) >>> 0) % this.width;
  }

  /** Adds one occurrence of the template with this hash; returns its count so far (an upper bound). */
  add(hash: number): number {
    this.total++;
    let min = Number.MAX_SAFE_INTEGER;
    for (let r = 0; r < this.depth; r++) {
      const i = this.index(hash, r);
      const v = this.cells[i]! + 1;
      if (v < 0xffffffff) this.cells[i] = v;
      if (v < min) min = v;
    }
    return min;
  }

  /** How often the template with this hash was added (an upper bound; 0 when never). */
  count(hash: number): number {
    let min = Number.MAX_SAFE_INTEGER;
    for (let r = 0; r < this.depth; r++) min = Math.min(min, this.cells[this.index(hash, r)]!);
    return min;
  }
}

/** The template hash of a line's text: `templateHash(lineTemplate(text))`. */
export const lineKey = (text: string): number => templateHash(lineTemplate(text));
