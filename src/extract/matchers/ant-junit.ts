import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Failed test cases read per log: one broken fixture fails every test of a suite. */
const MAX_FAILURES = 50;
/** Lines of one test case's report read: the message, the exception and Ant's already filtered frames. */
const MAX_BODY = 14;
/** How far below a test case's report Ant's `Test <class> FAILED` verdict may sit (blank lines, Ant's `[junit]` alone). */
const MAX_VERDICT_GAP = 4;

// Ant's `<junit>` task with its brief formatter: `Testcase: testX(com.x.FooTest):\tFAILED` (or `Caused an
// ERROR`). (The plain formatter's two-line form, `Testcase: testX took 1.429 sec` then `\tFAILED`, is left
// for a round whose development logs show it.)
const BRIEF = /^Testcase: ([\w$]+)(?:\(([\w$.]+)\))?:\s+(FAILED|Caused an ERROR)\s*$/;
// Ant's verdict on the suite after its report: `Test com.sun.jna.DirectCallbacksTest FAILED`.
const SUITE_VERDICT = /^Test [\w$.]+ FAILED\s*$/;
// The end of one test case's report: the next one, the suite's output sections, the next suite.
const BODY_END = /^Testcase: |^Testsuite: |^-{5,} (?:Standard|-)|^Test [\w$.]+ FAILED/;

/**
 * Reads the failures Ant's `<junit>` task reports with its brief formatter (Ant's task column cut,
 * src/extract/task-prefix.ts): each failed or errored test case with its message, exception and frames, and
 * Ant's `Test <class> FAILED` verdict under the suite's last report. The suite's `Tests run:` tally above is
 * left out: it only counts, and a block reaching up to it takes in whatever the suite printed above it (jna's
 * own stderr). Ant's own `BUILD FAILED` only says that a test failed; this says which and why.
 */
export const antJunitMatcher: Matcher = {
  id: 'ant-junit',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let failures = 0;
    for (let i = 0; i < lines.length && failures < MAX_FAILURES; i++) {
      const text = lines[i]!.text;
      if (!text.startsWith('Testcase: ') || text.length > MAX_LINE) continue;
      const head = BRIEF.exec(text);
      if (!head) continue;
      const bodyFrom = i + 1;
      failures++;
      const [, test, cls, kind] = head;
      const related: number[] = [];
      const message: string[] = [];
      let j = bodyFrom;
      for (; j < lines.length && j - bodyFrom < MAX_BODY; j++) {
        const t = lines[j]!.text;
        if (t.trim() === '' || BODY_END.test(t) || t.length > MAX_LINE) break;
        related.push(lines[j]!.n);
        if (message.length < 1 && !/^\s+at /.test(t)) message.push(t.trim());
      }
      let end = j - 1;
      // The suite's verdict under its last failed test case (no other test case between).
      for (let k = j; k < lines.length && k - j <= MAX_VERDICT_GAP; k++) {
        const t = lines[k]!.text;
        if (SUITE_VERDICT.test(t)) {
          related.push(lines[k]!.n);
          end = k;
          break;
        }
        if (t.trim() !== '') break;
      }
      out.push({
        kind: 'test',
        symbol: test!,
        message: `${cls ? `${cls}.` : ''}${test} ${kind === 'FAILED' ? 'failed' : 'errored'}${message.length ? `: ${message[0]}` : ''}`,
        tool: 'ant-junit',
        category: 'test',
        weight: 0.9,
        logLine: lines[i]!.n,
        related,
        blockEnd: lines[Math.max(end, i)]!.n,
      });
    }
    return out;
  },
};
