import type { Block } from './block.js';

/** pytest's exception lines in a long traceback: `E       AssertionError: …`, `E   ` (an empty one). */
const PYTEST_E = /^E(?:\s|$)/;
/** pytest's marker of the line that raised, in the source listing of a frame: `>       assert x == y`. */
const PYTEST_RAISED = /^>\s/;
/**
 * pytest's test title: `_____ TestFoo.test_bar _____`, `____ ERROR collecting tests/x.py ____`. pytest pads
 * the name to the terminal width, so a long parametrised name gets one underscore a side (`_ test_x[…] _`);
 * the frame separator `_ _ _ _ _` (nothing but underscores) is no title.
 */
export const PYTEST_TITLE = /^_+ (?=.*[^_\s]).*\S _+$/;
/** pytest's location after the exception lines: `tests/test_core.py:430: AssertionError`. */
const PYTEST_WHERE = /^\S+:\d+:(?: \w[\w.]*)?$/;
/** A section banner (`==== FAILURES ====`) above the first test: the title search stops there. */
const BANNER = /^=+ .* =+$|^=+$/;
/** How far above the block the `>` line may sit: a long test function is listed whole above it. */
const MAX_TITLE_LOOKBACK = 120;
/**
 * How far above the raising line the title is looked for. The search stops at the first title, banner or `E` line,
 * so it cannot reach another failure's title; the frames between are this failure's, and a traceback through a
 * library lists each frame's whole function (numpy's `test_isin`: the title 231 lines above the `>` line).
 */
const MAX_TITLE_ABOVE_RAISED = 1000;
/** Blank lines allowed between the exception lines and the location line pytest prints after them. */
const MAX_GAP_TO_WHERE = 2;

/**
 * A block cut to what a person quotes of it. pytest's long traceback lists each frame's whole source
 * around the line that raised; a reader quotes the test's title, the traceback from the `>` line nearest
 * above the exception down to its `E` lines, and the `file:line: Error` after them — not the test's source
 * listed above the `>` line, not the next test's failure. Any other block is returned as it is.
 */
export function condenseBlock(b: Block, text: ReadonlyMap<number, string>): Block {
  let firstE = -1;
  for (let n = b.start; n <= b.end; n++) if (PYTEST_E.test(text.get(n) ?? '')) { firstE = n; break; }
  if (firstE < 0) return b;
  // The `>` line nearest above the exception; without one this is pytest's short (`--tb=short`) or
  // collection traceback, whose every line is quoted: leave the block as it is.
  let raised = -1;
  for (let n = firstE - 1; n >= b.start - MAX_TITLE_LOOKBACK && text.has(n); n--) {
    const t = text.get(n)!;
    if (PYTEST_RAISED.test(t)) { raised = n; break; }
    if (PYTEST_TITLE.test(t) || BANNER.test(t) || PYTEST_E.test(t)) break;
  }
  if (raised < 0) return b;
  let title = -1;
  for (let n = raised - 1; n >= raised - MAX_TITLE_ABOVE_RAISED && text.has(n); n--) {
    const t = text.get(n)!;
    if (PYTEST_TITLE.test(t)) { title = n; break; }
    if (BANNER.test(t) || PYTEST_E.test(t)) break;
  }
  let lastE = firstE;
  while (PYTEST_E.test(text.get(lastE + 1) ?? '')) lastE++;
  // From the raising line down: its continuation and the frames between it and the exception stay.
  const keep = title >= 0 ? [title] : [];
  for (let n = raised; n <= lastE; n++) keep.push(n);
  for (let n = lastE + 1; n <= lastE + 1 + MAX_GAP_TO_WHERE && text.has(n); n++) {
    const t = text.get(n)!;
    if (PYTEST_WHERE.test(t)) { keep.push(n); break; }
    if (t.trim() !== '') break;
  }
  return { ...b, start: keep[0]!, end: keep[keep.length - 1]!, header: title >= 0 ? title : firstE, lines: keep, why: [...b.why, 'the title, the raising line and the exception of a pytest traceback'] };
}
