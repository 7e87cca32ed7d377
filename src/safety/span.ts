/** Where a secret is in a text: [start, end) and what it is (the `kind` in `[REDACTED:<kind>]`). */
export interface Span {
  start: number;
  end: number;
  kind: string;
}

/** A detector: the secrets it finds in `text`, each as a span of `text`. */
export type Detector = (text: string) => Span[];

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Whether a candidate looks random enough to be a real secret. About 3 bits/char for long strings;
 * a short string cannot reach that even when random (16 distinct chars = 4 bits max), so the floor
 * scales with length. `ghp_xxxx…`, `AKIAXXXXXXXXXXXXXXXX`, `${{ secrets.X }}` stay readable.
 */
export function looksRandom(body: string): boolean {
  if (/^\$|^%|^\*+$/.test(body)) return false; // $VAR, %VAR%, Actions' *** mask
  const floor = Math.min(3, 0.7 * Math.log2(Math.max(body.length, 2)));
  return shannonEntropy(body) >= floor;
}

/**
 * The random part of a provider token: the value without its lower-case/short prefixes (`ghp_`,
 * `sk_live_`, `glpat-`, `xoxb-`), so a placeholder such as `sk_live_XXXXXXXX` is judged by its X's.
 */
export function tokenBody(value: string): string {
  return value.replace(/^(?:[A-Za-z0-9]{1,8}[_-]){1,3}(?=.{8})/, '');
}
