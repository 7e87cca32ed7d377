import type { Block } from './block.js';
import { isFrame, PASSING } from './vocabulary.js';

/**
 * How many lines other than frames below a trace the runner's verdict on the test that printed it is
 * looked for: the rest of a chained trace (`Caused by:`, `During handling of the above exception`) and the
 * test's other output (more logged traces) come first.
 */
const VERDICT_LOOKAHEAD = 80;
/** The same in lines of any kind: a test that logs thousands of frames is not read to its end. */
const MAX_SCAN = 2000;
/** A JUnit-style class verdict with nothing failed (surefire, Ant, Gradle's console): `Tests run: 8, Failures: 0, Errors: 0`. */
const CLASS_PASSED = /\bTests run: \d+, Failures: 0, Errors: 0\b/;
/** pytest's `-v -s` verdict with the test's teardown output glued on (`test_docker_create PASSEDCould not close VM`). */
const PASSED_GLUED = /::\S+ PASSED(?=[A-Z])/;
/** Any verdict that something failed: surefire's `<<< FAILURE!`, a count of failures, `FAILED`, TAP's `not ok`. */
const SOMETHING_FAILED = /<<< (?:FAILURE|ERROR)!|\bFailures: [1-9]|\bErrors: [1-9]|\bFAILED\b|\bFAIL\b|^\s*not ok\b|\b[1-9]\d* (?:failed|failing|errors?)\b/;

/**
 * A stack trace a passing test printed: a test logs the exception it provoked on purpose (`SEVERE: Unable to
 * create initial connections of pool.` and its frames, in a test of invalid settings), and the runner's next
 * verdict says that test passed. Survived, so not why the step failed: the failure the runner reports
 * later is. The first verdict below the trace decides; a trace with no verdict below it is left alone.
 */
export function isPassedTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (b.kind !== 'trace') return false;
  // A trace under a failure's own header (jest's `FAIL x.spec.js`, surefire's `<<< FAILURE!`) is that
  // failure's, whatever passes after it: read up to the verdict before the trace.
  let above = 0;
  for (let n = b.end; n >= b.start - MAX_SCAN && above < VERDICT_LOOKAHEAD; n--) {
    const t = text.get(n);
    if (t === undefined) break;
    if (t.length > 2000 || isFrame(t)) continue;
    if (n < b.start) above++;
    if (SOMETHING_FAILED.test(t)) return false;
    if (n < b.start && (CLASS_PASSED.test(t) || PASSING.test(t) || PASSED_GLUED.test(t))) break;
  }
  let read = 0;
  for (let n = b.end + 1; n <= b.end + MAX_SCAN && read < VERDICT_LOOKAHEAD; n++) {
    const t = text.get(n);
    if (t === undefined) return false;
    if (t.length > 2000 || isFrame(t)) continue;
    read++;
    if (SOMETHING_FAILED.test(t)) return false;
    if (CLASS_PASSED.test(t) || PASSING.test(t) || PASSED_GLUED.test(t)) return true;
  }
  return false;
}
