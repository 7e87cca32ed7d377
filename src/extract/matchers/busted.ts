import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failure kept as related: the message, Passed in / Expected, a traceback's start. */
const MAX_BLOCK = 30;
// `Failure -> spec/slug_spec.lua @ 9` (the `it` block's line), then the test's full name, then `file.lua:10: message`.
const HEADER = /^(Failure|Error) → (\S+?\.(?:lua|moon)) @ (\d+)$|^(Failure|Error) -> (\S+?\.(?:lua|moon)) @ (\d+)$/;
const WHERE = /^(\S+?\.(?:lua|moon)):(\d+): (.*)$/;

/** Reads busted's failures and errors: the `Failure -> spec/x_spec.lua @ 9` header, the test name, the located message. */
export const bustedMatcher: Matcher = {
  id: 'busted',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.includes(' @ ')) continue;
      const h = HEADER.exec(text);
      if (!h) continue;
      const kind = h[1] ?? h[4]!;
      const spec = h[2] ?? h[5]!;
      const specLine = Number(h[3] ?? h[6]);
      const name = lines[i + 1]?.text.trim() ?? '';
      const related = lines[i + 1] ? [lines[i + 1]!.n] : [];
      let where: RegExpExecArray | null = null;
      let whereN = 0;
      let j = i + 2;
      for (; j < lines.length && lines[j]!.text.trim() !== '' && related.length < MAX_BLOCK; j++) {
        related.push(lines[j]!.n);
        if (!where) {
          where = WHERE.exec(lines[j]!.text);
          whereN = lines[j]!.n;
        }
      }
      // `--verbose` (often a project's .busted default) prints the failure's `stack traceback:` after one blank
      // line: it is this failure's, down to the next blank line or header.
      let k = j;
      while (k < lines.length && k - j < 2 && lines[k]!.text.trim() === '') k++;
      if (k > j && lines[k]?.text.trim() === 'stack traceback:') {
        for (; k < lines.length && lines[k]!.text.trim() !== '' && !HEADER.test(lines[k]!.text) && related.length < MAX_BLOCK; k++) related.push(lines[k]!.n);
        j = k;
      }
      // An assertion names its line in the spec; an error names where it was raised, which is a frame.
      const inSpec = where && where[1] === spec;
      out.push({ kind: 'test', symbol: name, path: spec, line: inSpec ? Number(where![2]) : specLine, message: where?.[3] ?? `${kind}: ${name}`,
        tool: 'busted', category: 'test', weight: 0.9, logLine: lines[i]!.n, related });
      if (where && !inSpec) {
        out.push({ kind: 'frame', path: where[1]!, line: Number(where[2]), message: where[3]!, tool: 'busted', weight: 0.6, logLine: whereN });
      }
      i = j - 1;
    }
    return out;
  },
};
