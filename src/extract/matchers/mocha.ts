import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isLibraryPath, parseV8Frame, type V8Frame } from './frames-v8.js';

// The failure list starts after the `N failing` count; the same `N) title` lines appear in the tree
// above it, so nothing before the count is read.
const FAILING_COUNT = /^\s*\d+ failing$/;
const FAILURE_HEADER = /^ {2}(\d+)\) (.+)$/;
// A timeout names the test file at the end of its message: `... resolves. (/abs/test/x.spec.js)`.
const TIMEOUT_FILE = /\((\/[^()]+\.[cm]?[jt]sx?)\)$/;
const MAX_TITLE_LINES = 12;
const MAX_RELATED = 30;

interface Failure {
  header: number;
  title: string[];
  titleDone: boolean;
  message?: { n: number; text: string };
  related: number[];
  frames: V8Frame[];
}

function toSignal(f: Failure): Signal | null {
  if (!f.message) return null;
  const signal: Signal = {
    kind: 'test',
    // mocha's own full title: suites and test joined by spaces.
    symbol: f.title.join(' ').replace(/:$/, ''),
    message: f.message.text,
    tool: 'mocha',
    category: 'test',
    weight: 0.9,
    logLine: f.header,
  };
  // Test bodies and hooks run as `Context.<anonymous>`, which is therefore the test file's frame.
  const own =
    f.frames.find((x) => x.symbol?.startsWith('Context.') && !isLibraryPath(x.path)) ??
    f.frames.find((x) => !isLibraryPath(x.path));
  if (own) {
    signal.path = own.path;
    signal.line = own.line;
    signal.column = own.column;
  } else {
    const file = TIMEOUT_FILE.exec(f.message.text);
    if (file) signal.path = file[1];
  }
  signal.related = [f.message.n, ...f.related];
  return signal;
}

/** Reads mocha's spec-reporter failures: `1) Suite\n test:`, the error, `+ expected - actual`, frames. */
export const mochaMatcher: Matcher = {
  id: 'mocha',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let inFailures = false;
    let cur: Failure | null = null;
    const close = () => {
      if (cur) {
        const s = toSignal(cur);
        if (s) out.push(s);
      }
      cur = null;
    };
    for (const l of lines) {
      const text = l.text;
      if (FAILING_COUNT.test(text)) {
        close();
        inFailures = true;
        continue;
      }
      if (!inFailures) continue;
      const head = FAILURE_HEADER.exec(text);
      if (head) {
        close();
        const first = head[2]!.trim();
        cur = { header: l.n, title: [first], titleDone: first.endsWith(':'), related: [], frames: [] };
        continue;
      }
      if (!cur) continue;
      const f: Failure = cur;
      const trimmed = text.trim();
      if (!f.titleDone) {
        // Nested suite titles follow on their own, deeper lines; the test's line ends with a colon.
        if (trimmed === '') continue;
        f.title.push(trimmed);
        if (trimmed.endsWith(':') || f.title.length >= MAX_TITLE_LINES) f.titleDone = true;
        continue;
      }
      if (trimmed === '') continue;
      if (!f.message) {
        f.message = { n: l.n, text: trimmed };
        continue;
      }
      const frame = text.includes('at ') ? parseV8Frame(text) : null;
      if (frame) {
        f.frames.push(frame);
        continue;
      }
      // Once the stack has started, anything unindented is whatever the build printed next.
      if (f.frames.length > 0) {
        if (!text.startsWith(' ')) close();
        continue;
      }
      if (f.related.length < MAX_RELATED) f.related.push(l.n);
    }
    close();
    return out;
  },
};
