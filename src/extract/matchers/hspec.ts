import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failure kept as related: expected/but got, a long diff is cut. */
const MAX_BLOCK = 30;
// `  test/SlugSpec.hs:10:21: ` then `  1) slugify drops punctuation`.
const LOCATION = /^\s+(\S+\.l?hs):(\d+):(\d+): ?$/;
const EXAMPLE = /^\s+\d+\) (\S.*)$/;
const RERUN = /^\s+To rerun use: /;

/** Reads hspec's `Failures:` section: the example's `file.hs:L:C:` line, its description, expected/but got. */
export const hspecMatcher: Matcher = {
  id: 'hspec',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let inFailures = false;
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE) continue;
      if (text === 'Failures:') inFailures = true;
      if (!inFailures) continue;
      const loc = LOCATION.exec(text);
      const ex = loc ? EXAMPLE.exec(lines[i + 1]?.text ?? '') : null;
      // The location line is what tells hspec's report from RSpec's, which numbers its failures the same way.
      if (!ex) continue;
      const start = i + 1;
      const related = [lines[i + 1]!.n];
      const message: string[] = [];
      let j = start + 1;
      for (; j < lines.length && related.length < MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (t.trim() === '') continue;
        if (LOCATION.test(t) || EXAMPLE.test(t) || !/^\s/.test(t)) break;
        related.push(lines[j]!.n);
        if (RERUN.test(t)) {
          j++;
          break;
        }
        if (message.length < 2) message.push(t.trim());
      }
      const name = ex[1]!;
      const s: Signal = { kind: 'test', symbol: name, message: message.join(' ') || name, tool: 'hspec', category: 'test', weight: 0.9,
        logLine: lines[i]!.n, related };
      Object.assign(s, { path: loc![1], line: Number(loc![2]), column: Number(loc![3]) });
      out.push(s);
      i = j - 1;
    }
    return out;
  },
};
