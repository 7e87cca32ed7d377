import { isChangedLine, type PrDiff } from '../repo/diff.js';

/**
 * A reader's report that a quoted string never closed: yash's `the single quotation is not closed`, dash's
 * `Unterminated quoted string`, bash's `unexpected EOF while looking for matching`, Ruby's `unterminated string
 * meets end of file`.
 */
const QUOTE_LEFT_OPEN =
  /\b(?:unterminated|unclosed|unmatched|unbalanced)\s+(?:quoted\s+)?(?:string|quot\w*)|\bquot\w*\s+(?:\w+\s+){0,2}not closed\b|\bEOF while looking for matching\b|\bstring (?:literal )?(?:is )?not (?:closed|terminated)\b/i;

const QUOTES = ['"', "'", '`'] as const;

/** Whether a line holds an odd number of one kind of quote (escaped quotes left out). */
function oddQuotes(text: string): Set<string> {
  const code = text.replace(/\\./g, '');
  return new Set(QUOTES.filter((q) => (code.split(q).length - 1) % 2 === 1));
}

/**
 * A quote a change dropped (or added) pairs every later quote of the file the wrong way, so the reader gives up
 * only at the end of the file, hundreds of lines below the change (yash on savelog's `echo "…` that lost its
 * closing quote at line 196 reports line 361, the file's end, and names the *single* quotation, the kind the
 * wrong pairing left open last). The report's line says nothing; the PR's change does: the first changed line at
 * or above it whose change left one kind of quote unpaired where the old text had it paired is the place.
 * Full-line comments are passed over, since an apostrophe there pairs nothing.
 */
export function quoteLeftOpenAbove(diff: PrDiff | undefined, file: string, line: number, message: string): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks;
  if (!hunks || !QUOTE_LEFT_OPEN.test(message) || isChangedLine(diff, file, line)) return undefined;
  let first: number | undefined;
  for (const h of hunks) {
    for (const [i, a] of h.added.entries()) {
      if (a.n > line || /^\s*(?:#|\/\/)/.test(a.text)) continue;
      const now = oddQuotes(a.text);
      const old = oddQuotes(h.removed[i] ?? '');
      const flipped = QUOTES.some((q) => now.has(q) !== old.has(q));
      if (flipped && (first === undefined || a.n < first)) first = a.n;
    }
  }
  return first;
}
