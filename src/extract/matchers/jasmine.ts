import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failure kept as related: the message and the stack's first frames. */
const MAX_BLOCK = 30;
const EXAMPLE = /^(\d+)\) (\S.*)$/;
const MESSAGE = /^\s+Message:$/;
const STACK = /^\s+Stack:$/;
// `at UserContext.<anonymous> (/src/spec/slugSpec.js:9:49)` or `at /src/spec/slugSpec.js:9:49`.
const FRAME = /^\s+at (?:.*? \()?((?:\/|\w:\\|\.{0,2}\/?)[^()\s]+?\.[cm]?[jt]sx?):(\d+):(\d+)\)?$/;
const SPEC_FILE = /(?:[sS]pec|\.test)\.[cm]?[jt]sx?$|(?:^|\/)spec\//;

/**
 * Reads Jasmine's `Failures:` blocks (`1) Suite spec`, `Message:`, `Stack:`), pinned to the stack's frame
 * in the spec file; frames-v8 reads the stack's frames into the code under test.
 */
export const jasmineMatcher: Matcher = {
  id: 'jasmine',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let inFailures = false;
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE) continue;
      if (text === 'Failures:') {
        inFailures = true;
        continue;
      }
      const ex = inFailures ? EXAMPLE.exec(text) : null;
      if (!ex || !MESSAGE.test(lines[i + 1]?.text ?? '')) continue;
      const related = [lines[i + 1]!.n];
      const message: string[] = [];
      let at: { path: string; line: number; column: number } | undefined;
      let inStack = false;
      let j = i + 2;
      for (; j < lines.length && related.length < MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (t.trim() === '' || EXAMPLE.test(t)) break;
        related.push(lines[j]!.n);
        if (STACK.test(t)) {
          inStack = true;
          continue;
        }
        if (!inStack) {
          if (message.length < 2) message.push(t.trim());
          continue;
        }
        const f = FRAME.exec(t);
        if (f && !at && SPEC_FILE.test(f[1]!) && !f[1]!.includes('node_modules')) at = { path: f[1]!, line: Number(f[2]), column: Number(f[3]) };
      }
      const s: Signal = { kind: 'test', symbol: ex[2]!, message: message.join(' ') || ex[2]!, tool: 'jasmine', category: 'test', weight: 0.9,
        logLine: lines[i]!.n, related };
      if (at) Object.assign(s, at);
      out.push(s);
      i = j - 1;
    }
    return out;
  },
};
