import type { Block } from './block.js';
import { MAX_CAPTURED_LOOKBACK } from '../limits.js';

/**
 * pytest's banner over what a failing test printed while it ran: `---- Captured stderr call ----`,
 * `---- Captured log setup ----`. What follows is the test's own logging, not pytest's report of the failure.
 */
const CAPTURED_BANNER = /^-{3,} Captured (?:stdout|stderr|log)(?: (?:call|setup|teardown))? -{3,}$/;
/** What ends a captured section: the next test's title (`____ test_x ____`) or a session banner (`==== … ====`). */
const SECTION_END = /^_+ (?=.*[^_\s]).*\S _+$|^=+ .* =+$/;

/**
 * A block that is a failing test's captured output (a traceback the code under test logged and went on
 * past: scrapy's `ERROR: Error caught on signal handler` over `ImportError: No module named parse`, printed
 * under `---- Captured stderr call ----`): pytest's report of that test is its `E` lines above the banner,
 * so the captured lines are context, not the failure a person quotes first.
 */
export function isCapturedOutput(b: Block, text: ReadonlyMap<number, string>): boolean {
  for (let n = b.start - 1; n >= b.start - MAX_CAPTURED_LOOKBACK; n--) {
    const t = text.get(n);
    if (t === undefined) return false;
    if (CAPTURED_BANNER.test(t)) return true;
    if (SECTION_END.test(t)) return false;
  }
  return false;
}
