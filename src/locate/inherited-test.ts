import type { Candidate } from './candidate.js';
import { mergeCandidates } from './candidate.js';
import type { Workspace } from '../repo/workspace.js';
import { MAX_INHERITED_TEST_ANCHORS } from '../limits.js';

/**
 * How far above the base class's line the running class's line goes: just above it, so the assertion's
 * line stays the next lead (the log proves that one; the expected value only says where it came from).
 */
const INHERITED_LIFT = 0.05;
/**
 * The expected side of an assertion's message, as the JVM's assertion libraries print it: JUnit 4
 * `expected:<841> but was:<133>`, JUnit 5 / AssertJ `expected: <841> but was: <133>`, TestNG
 * `expected [841] but found [133]`, Hamcrest `Expected: is <841>`.
 */
const EXPECTED = /\bexpected:? ?<([^>]{1,200})>|\bexpected \[([^\]]{1,200})\]|\bExpected: (?:is )?<?([^>\n]{1,200})/g;
/** A value worth looking for: a number of two digits or more, or a word or path-like token of three characters or more. */
const TOKEN = /\d{2,}(?:\.\d+)?|[A-Za-z_][\w.\/-]{2,}/g;
/** Source files a JVM test class may be written in. */
const JVM_SOURCE = /\.(?:java|kt|groovy|scala)$/;
const DECLARATION = /^\s*(?:package|import)\s/;

export const INHERITED_TEST_NOTE = 'the failing test runs in a subclass of the class that asserts: this line of the subclass spells the value the assertion expected';

/**
 * A test method a base class declares and a subclass runs (JUnit's abstract test classes: surefire reports
 * `WMFImageReaderTest>ImageReaderAbstractTest.testRead:225`, the frame is the base's) fails for that subclass
 * alone: the base's line is shared by every subclass that passes. What differs is what the subclass supplies
 * (its test data, its fixture, the reader it creates), so its line that spells the value the assertion
 * expected (`expected:<841>` and the subclass's `new Dimension(841, 673)`) is where the expectation comes
 * from. It is offered just above the base's line; with no such line the subclass gives nothing.
 */
export function candidatesFromInheritedTest(candidates: readonly Candidate[], ws: Workspace): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  let anchors = 0;
  for (const anchor of mergeCandidates([...candidates])) {
    if (anchors >= MAX_INHERITED_TEST_ANCHORS) break;
    if (anchor.cause !== 'test') continue;
    const test = anchor.signals.find((s) => s.kind === 'test' && s.symbol);
    if (!test) continue;
    // `pkg.RunningClass.method`: the class the runner ran, against the file the frame is in.
    const parts = test.symbol!.split('.');
    const running = parts[parts.length - 2]?.split('$')[0];
    if (!running || !/^[A-Z]/.test(running)) continue;
    const base = anchor.file.slice(anchor.file.lastIndexOf('/') + 1).replace(JVM_SOURCE, '');
    if (!JVM_SOURCE.test(anchor.file) || base === running) continue;
    anchors++;
    const values = new Set<string>();
    for (const m of `${test.message}`.matchAll(EXPECTED)) for (const t of (m[1] ?? m[2] ?? m[3] ?? '').match(TOKEN) ?? []) values.add(t);
    if (!values.size) continue;
    const pkg = parts.slice(0, -2).join('/');
    const file = runningClassFile(ws, pkg, running);
    if (!file) continue;
    const lines = ws.lines(file) ?? [];
    for (let n = 1; n <= lines.length; n++) {
      const text = lines[n - 1]!;
      if (DECLARATION.test(text)) continue;
      const value = [...values].find((v) => spells(text, v));
      if (!value) continue;
      const key = `${file}:${n}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({
          file,
          line: n,
          cause: 'test',
          score: anchor.score + INHERITED_LIFT,
          message: `${running} runs ${anchor.file}:${anchor.line} and supplies \`${value}\`, the value the assertion expected`,
          symbol: running,
          signals: [],
          notes: [INHERITED_TEST_NOTE],
          mapped: 'search',
        });
      }
      break;
    }
  }
  return out;
}

/** The running class's source: at its package's path when there is one, else the only file of its name. */
function runningClassFile(ws: Workspace, pkg: string, cls: string): string | undefined {
  const named = ws.files.filter((f) => JVM_SOURCE.test(f) && f.slice(f.lastIndexOf('/') + 1).replace(JVM_SOURCE, '') === cls);
  const inPkg = pkg ? named.filter((f) => f.includes(`${pkg}/`)) : [];
  if (inPkg.length === 1) return inPkg[0];
  return named.length === 1 ? named[0] : undefined;
}

/** Whether a line spells a value as a whole token (841 in `Dimension(841, 673)`, not in 8410). */
function spells(line: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&');
  return new RegExp(`(?<![\\w.])${escaped}(?![\\w])`).test(line);
}
