import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isLibraryPath, parseV8Frame, type V8Frame } from './frames-v8.js';

// `FAIL file`, or ` FAIL  file` when coloured (an inverse badge with padding); vitest's header looks
// the same but names the test after ` > `, so such headers are skipped below.
const FAIL_HEADER = /^ ?FAIL {1,2}(\S.*?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
const BLOCK_HEADER = /^ {2}● (.+)$/;
// Captured console output is not a failing test.
const NOT_A_TEST = /^Console$/;
// A whole suite that failed before its tests ran: its error is the failure. A syntax error or a missing
// module there is read by the compiler and module matchers, with better locations; any other error (a
// `TypeError` thrown while the suite loads) only this block reports.
const SUITE_FAILED = /^Test suite failed to run$/;
const READ_ELSEWHERE = /\bSyntaxError\b|^Cannot find module\b|Cannot find module '|^Jest encountered an unexpected token/;
const CODE_FRAME_LINE = /^\s*>?\s*\d+ \|/;
const CODE_FRAME_CARET = /^\s*\| /;
const BLOCK_END = /^(?:Test Suites:|Tests:|Snapshots:|PASS |FAIL )/;
const MAX_RELATED = 24;
// jest's closing recap of every failed test (several reporters, or --ci with many suites) under this line:
// each block printed again, restating the ones above.
const RECAP = /^Summary of all failing tests$/;

interface Block {
  title: string;
  header: number;
  file?: string;
  message?: { n: number; text: string };
  related: number[];
  frames: (V8Frame & { n: number })[];
  /** The code frame's lines (`> 85 |   expect(x)…`, the caret): part of what a person pastes. */
  codeFrame: number[];
  codeFrameSeen: boolean;
  /** Printed again in the recap at the end: it says what failed, and is not quoted a second time. */
  recap: boolean;
  /** `Test suite failed to run`: the suite's own error, not a test's. */
  suite: boolean;
}

function toSignal(b: Block): Signal | null {
  if (!b.message) return null;
  if (b.suite && READ_ELSEWHERE.test(b.message.text)) return null;
  const signal: Signal = {
    kind: 'test',
    symbol: b.title,
    message: b.message.text,
    tool: 'jest',
    category: 'test',
    weight: 0.9,
    logLine: b.header,
  };
  // The test's own frame (in the FAIL file) is the assertion; otherwise the first frame outside libraries,
  // which for a thrown error is where it was thrown.
  const own =
    (b.file ? b.frames.find((f) => f.path === b.file) : undefined) ??
    b.frames.find((f) => !isLibraryPath(f.path));
  if (own) {
    signal.path = own.path;
    signal.line = own.line;
    signal.column = own.column;
  } else if (b.file) {
    signal.path = b.file;
  }
  // The block runs from the title through the diff and the code frame to the test's own frame: a long
  // snapshot diff must not cut it before the frame that says where the test failed.
  const related = [b.message.n, ...b.related, ...b.codeFrame, ...(own ? [own.n] : [])].filter((n) => n !== b.header);
  if (related.length) signal.related = related;
  // jest said where the block ends: at the test's own frame, or the code frame's last line. A long diff (a
  // snapshot with the command's output in it) puts the code frame past where a shape-grown block would stop.
  const end = own?.n ?? b.codeFrame[b.codeFrame.length - 1];
  if (end !== undefined) signal.blockEnd = end;
  if (b.recap) signal.restatement = true;
  return signal;
}

/** Reads jest's failure report: `FAIL file`, `● Suite › test` blocks, diffs, code frames and locations. */
export const jestMatcher: Matcher = {
  id: 'jest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let file: string | undefined;
    let block: Block | null = null;
    let recap = false;
    const close = () => {
      if (block) {
        const s = toSignal(block);
        if (s) out.push(s);
      }
      block = null;
    };
    for (const l of lines) {
      const text = l.text;
      if (RECAP.test(text.trim())) {
        close();
        recap = true;
        continue;
      }
      const fail = FAIL_HEADER.exec(text);
      if (fail && !fail[1]!.includes(' > ')) {
        close();
        file = fail[1];
        continue;
      }
      const head = BLOCK_HEADER.exec(text);
      if (head) {
        close();
        const title = head[1]!.trim();
        if (!NOT_A_TEST.test(title)) {
          block = { title, header: l.n, file, related: [], frames: [], codeFrame: [], codeFrameSeen: false, recap, suite: SUITE_FAILED.test(title) };
        }
        continue;
      }
      if (!block) continue;
      const b: Block = block;
      if (BLOCK_END.test(text)) {
        close();
        continue;
      }
      const trimmed = text.trim();
      if (trimmed === '') continue;
      if (!b.message) {
        b.message = { n: l.n, text: trimmed };
        continue;
      }
      if (CODE_FRAME_LINE.test(text) || CODE_FRAME_CARET.test(text)) {
        b.codeFrameSeen = true;
        if (b.frames.length === 0 && b.codeFrame.length < MAX_RELATED) b.codeFrame.push(l.n);
        continue;
      }
      const frame = text.includes(' at ') ? parseV8Frame(text) : null;
      if (frame) {
        b.frames.push({ ...frame, n: l.n });
        continue;
      }
      // Between the message and the code frame sit the Expected/Received lines and the diff.
      if (!b.codeFrameSeen && b.frames.length === 0 && b.related.length < MAX_RELATED) b.related.push(l.n);
    }
    close();
    return out;
  },
};
