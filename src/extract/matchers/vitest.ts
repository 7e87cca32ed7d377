import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { frameSignal, type V8Frame } from './frames-v8.js';

// ` FAIL  test/a.test.ts > suite > test`; a file that failed to load prints ` FAIL  file [ file ]`.
// Jest's coloured header is also ` FAIL  file`, so the ` > ` or ` [ ` is what makes it vitest's.
const FAIL_HEADER = /^ FAIL {2}(\S.*)$/;
// vitest's own frame format: ` ❯ fn file:line:col` or ` ❯ file:line:col`.
const POINTER = /^\s*❯ (?:(\S[^:]*?) )?(\S+):(\d+):(\d+)$/;
// The `⎯⎯⎯[1/2]⎯` rule after each error, and the summary, end a block.
const BLOCK_END = /^(?:\s*⎯|\s*Test Files |\s*Tests |\s*Start at )/;
const CODE_FRAME = /^\s*\d*\|/;
const MAX_LINE = 2000;
const MAX_RELATED = 40;

interface Block {
  file: string;
  title: string;
  header: number;
  message?: { n: number; text: string };
  related: number[];
  pointers: { frame: V8Frame; n: number; text: string }[];
}

function splitHeader(rest: string): { file: string; title: string } {
  const bracket = rest.indexOf(' [ ');
  if (bracket > 0) return { file: rest.slice(0, bracket), title: rest.slice(0, bracket) };
  const sep = rest.indexOf(' > ');
  if (sep < 0) return { file: rest, title: rest };
  return { file: rest.slice(0, sep), title: rest.slice(sep + 3) };
}

function toSignals(b: Block): Signal[] {
  if (!b.message) return [];
  const test: Signal = {
    kind: 'test',
    symbol: b.title,
    path: b.file,
    message: b.message.text,
    tool: 'vitest',
    category: 'test',
    weight: 0.9,
    logLine: b.header,
  };
  // The pointer into the test file is the assertion; an error thrown in a hook or in source code
  // points elsewhere first, and those pointers become frames.
  const own = b.pointers.find((p) => p.frame.path === b.file);
  if (own) {
    test.line = own.frame.line;
    test.column = own.frame.column;
  }
  const related = [b.message.n, ...b.related];
  test.related = related;
  // The test's own pointer is already the test signal's location; counting it again as a frame
  // would weigh the test file twice.
  const frames = b.pointers.filter((p) => p !== own).map((p) => frameSignal(p.frame, 'vitest', p.n, p.text));
  return [test, ...frames];
}

/** Reads vitest's failure report: `FAIL file > suite > test`, the error, `- Expected`/`+ Received`, `❯` pointers. */
export const vitestMatcher: Matcher = {
  id: 'vitest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let block: Block | null = null;
    const close = () => {
      if (block) out.push(...toSignals(block));
      block = null;
    };
    for (const l of lines) {
      const text = l.text;
      if (text.length > MAX_LINE) continue;
      const head = FAIL_HEADER.exec(text);
      if (head && (head[1]!.includes(' > ') || head[1]!.includes(' [ '))) {
        close();
        const { file, title } = splitHeader(head[1]!.trim());
        block = { file, title, header: l.n, related: [], pointers: [] };
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
      if (text.includes('❯')) {
        const m = POINTER.exec(text);
        if (m) {
          const frame: V8Frame = { path: m[2]!, line: Number(m[3]), column: Number(m[4]) };
          if (m[1]) frame.symbol = m[1];
          b.pointers.push({ frame, n: l.n, text });
          continue;
        }
      }
      if (CODE_FRAME.test(text)) continue;
      // The diff sits between the error line and the first pointer; later lines are code frames.
      if (b.pointers.length === 0 && b.related.length < MAX_RELATED) b.related.push(l.n);
    }
    close();
    return out;
  },
};
