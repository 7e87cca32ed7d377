import type { LogLine } from '../types.js';
import { isEmptyLine } from './grow-block.js';

/**
 * Testing Library's dump of the page it searched (`Ignored nodes: comments, script, style` then `<body>` …
 * `</body>`), printed under every failed `getBy…`/`findBy…` query by @testing-library/dom whatever the test
 * runner (jest, vitest, mocha, Playwright's component tests): the markup the query looked through, hundreds of
 * lines of it, between the error (`TestingLibraryElementError: Unable to find an element with the text: …`)
 * and the frames that say which test line asked. A person pastes the error and the test's frame, not the page.
 */
const DUMP_START = /^\s*Ignored nodes: comments, script, style\s*$/;
/** The dump's first line when the ignore note is not printed (`prettyDOM` with its defaults off). */
const BODY_OPEN = /^\s*<body>\s*$/;
const BODY_CLOSE = /^\s*<\/body>\s*$/;
/** How far the closing `</body>` is looked for below the dump's start (the library cuts its dump at 7,000 characters by default; a page wider than that is rare, and a dump that never closes is left alone). */
const DUMP_SCAN = 3_000;
/** How many lines after `</body>` continue the failure (the frames, the test's code frame), up to the first blank line. */
const AFTER_DUMP = 12;

/**
 * A block's quoted lines without Testing Library's DOM dump: the dump's lines are left out, and a block that ran
 * into the dump and stopped inside it (its length budget spent on markup) goes on after `</body>` with the lines
 * that follow it up to the next blank line (the `❯`/`at` frames and the test's code frame). `own` is the block's
 * lines in order; `lines` the step's.
 */
export function withoutDomDump(own: readonly number[], lines: readonly LogLine[], index: ReadonlyMap<number, number>): number[] {
  const at = own.findIndex((n) => DUMP_START.test(lines[index.get(n) ?? -1]?.text ?? ''));
  if (at < 0) return [...own];
  const from = index.get(own[at]!)!;
  // The dump runs from its note (and the `<body>` under it) to the first `</body>` below.
  let close = -1;
  for (let i = from + 1; i < lines.length && i - from <= DUMP_SCAN; i++) {
    if (BODY_CLOSE.test(lines[i]!.text)) {
      close = i;
      break;
    }
    if (i === from + 1 && !BODY_OPEN.test(lines[i]!.text) && !isEmptyLine(lines[i]!.text)) break;
  }
  if (close < 0) return [...own];
  const dumpEnd = lines[close]!.n;
  const kept = own.slice(0, at);
  // What the block held below the dump, or, when it stopped inside it, what follows `</body>` up to a blank line.
  const below = own.filter((n) => n > dumpEnd);
  if (below.length) return [...kept, ...below];
  for (let i = close + 1; i < lines.length && i - close <= AFTER_DUMP && !isEmptyLine(lines[i]!.text); i++) kept.push(lines[i]!.n);
  return kept;
}
