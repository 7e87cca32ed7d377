import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failure kept as related: actual/expected and the first backtrace entries. */
const MAX_BLOCK = 30;
// testthat 3.1: `Failure ('test-slug.R:6'): name`; 3.2: `── Failure ('test-slug.R:6:3'): name ──`;
// 2.x: `── 1. Failure: name (@test-slug.R#6) ──`; inside R CMD check's tail the same lines come indented.
const HEADER = /^\s*(?:── )?(?:\d+\. )?(Failure|Error) \(['‘]?(.+?\.[Rr]):(\d+)(?::\d+)?['’]?\): (.+?)(?: ─+)?$/;
const OLD_HEADER = /^\s*── \d+\. (Failure|Error): (.+?) \(@(.+?\.[Rr])#(\d+)\) ─+$/;
const END = /^\s*(?:─{10,}|═{2,}|\[ FAIL \d+)/;

/** Reads testthat failures and errors: the `Failure ('test-x.R:6'): name` header and its actual/expected or error lines. */
export const testthatMatcher: Matcher = {
  id: 'testthat',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || (!text.includes('Failure') && !text.includes('Error'))) continue;
      const h = HEADER.exec(text);
      const o = h ? null : OLD_HEADER.exec(text);
      if (!h && !o) continue;
      const [kind, file, line, name] = h ? [h[1]!, h[2]!, h[3]!, h[4]!] : [o![1]!, o![3]!, o![4]!, o![2]!];
      const related: number[] = [];
      const message: string[] = [];
      let j = i + 1;
      for (; j < lines.length && related.length < MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (END.test(t) || HEADER.test(t) || OLD_HEADER.test(t)) break;
        if (t.trim() === '') continue;
        related.push(lines[j]!.n);
        if (message.length < 2 && !t.trim().startsWith('<')) message.push(t.trim());
      }
      // testthat names the file relative to tests/testthat/, where it runs the tests.
      const path = file.includes('/') ? file : `tests/testthat/${file}`;
      out.push({ kind: 'test', symbol: name, path, line: Number(line), message: message.join(' ') || `${kind}: ${name}`, tool: 'testthat',
        category: 'test', weight: 0.9, logLine: lines[i]!.n, related });
      i = j - 1;
    }
    return out;
  },
};
