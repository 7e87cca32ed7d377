/**
 * Fitting a document made of parts into a character budget by cutting the longest parts first
 * (DESIGN.md §7.4: every output bounded, and the output says what was cut).
 */

/** One piece of a document; `shrink` renders it again in at most `max` characters (or gives up). */
export interface Part {
  text: string;
  /** Returns a rendering of at most `max` characters when it can, else its smallest one. */
  shrink?: (max: number) => string;
}

/** Total length of the parts once joined with `sep`. */
function total(parts: readonly Part[], sep: string): number {
  const present = parts.filter((p) => p.text !== '');
  return present.reduce((n, p) => n + p.text.length, 0) + sep.length * Math.max(0, present.length - 1);
}

/**
 * Joins the parts with `sep`, shrinking the longest shrinkable part (down towards the next longest,
 * or by the whole excess) until the result fits in `max` characters or nothing can shrink further.
 */
export function fitParts(parts: Part[], max: number, sep = '\n\n'): string {
  const done = new Set<Part>();
  for (let round = 0; round < 64; round++) {
    const excess = total(parts, sep) - max;
    if (excess <= 0) break;
    const open = parts.filter((p) => p.shrink && !done.has(p)).sort((a, b) => b.text.length - a.text.length);
    const longest = open[0];
    if (!longest) break;
    const next = open[1]?.text.length ?? 0;
    // Level the longest down to the runner-up before touching the runner-up, unless one cut suffices.
    const target = Math.max(0, longest.text.length - excess, Math.floor(next * 0.9));
    const before = longest.text.length;
    longest.text = longest.shrink!(target);
    if (longest.text.length > target || longest.text.length >= before) done.add(longest);
  }
  return parts.filter((p) => p.text !== '').map((p) => p.text).join(sep);
}

/**
 * Keeps whole lines from the start while they fit in `budget` characters (newlines counted), then
 * the start of the next line with an ellipsis. Returns the kept lines and how many were cut or shortened.
 */
export function takeChars(lines: readonly string[], budget: number): { kept: string[]; cut: number } {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const need = line.length + (kept.length ? 1 : 0);
    if (used + need <= budget) {
      kept.push(line);
      used += need;
      continue;
    }
    const room = budget - used - (kept.length ? 1 : 0) - 1;
    if (room >= 20) kept.push(`${line.slice(0, room)}…`);
    break;
  }
  const whole = kept.length && kept[kept.length - 1] !== lines[kept.length - 1] ? kept.length - 1 : kept.length;
  return { kept, cut: lines.length - whole };
}

/**
 * Shrinks a block built from `lines` by `render(kept, cutCount)` to at most `max` characters, keeping
 * as many leading characters as possible (binary search over the character budget).
 */
export function shrinkLines(
  lines: readonly string[],
  render: (kept: string[], cut: number) => string,
  max: number,
): string {
  let lo = 0;
  let hi = lines.reduce((n, l) => n + l.length + 1, 0);
  let best = render([], lines.length);
  if (best.length > max) return best;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const { kept, cut } = takeChars(lines, mid);
    const text = render(kept, cut);
    if (text.length <= max) {
      best = text;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
