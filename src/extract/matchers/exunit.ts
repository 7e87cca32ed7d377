import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failure kept as related: code/left/right and the first stacktrace entries. */
const MAX_BLOCK = 40;
// `  1) test truncates at a word boundary (SlugTest)`, `  2) doctest Slug.pad/2 (1) (SlugTest)`, `  3) property sums (MathTest)`.
const HEADER = /^\s+(\d+)\) ((?:test|doctest|property|describe) .+?) \(([\w.]+)\)$/;
const TEST_AT = /^\s+(\S+\.exs?):(\d+)$/;
// `       test/slug_test.exs:14: (test)`, `       (slug 0.1.0) lib/slug.ex:15: Slug.truncate/2`.
const ENTRY = /^\s+(?:\(([\w]+) [\w.-]+\) )?(\S+\.(?:exs?|erl|hrl)):(\d+): (.+)$/;
// OTP's and Elixir's own applications: a failure passes through them, a PR's bug does not live there.
const STDLIB = new Set(['elixir', 'stdlib', 'kernel', 'ex_unit', 'mix', 'logger', 'erts', 'iex', 'eex', 'crypto', 'ssl', 'inets']);
const END = /^Finished in [\d.]+ seconds|^\d+ (?:tests?|doctests?|propert(?:y|ies)), \d+ failures?/;

/** Reads ExUnit failures: `1) test name (Module)`, its `test/x_test.exs:12` line, the assertion or exception, the stacktrace. */
export const exunitMatcher: Matcher = {
  id: 'exunit',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const h = lines[i]!.text.length <= MAX_LINE ? HEADER.exec(lines[i]!.text) : null;
      const def = h && lines[i + 1] ? TEST_AT.exec(lines[i + 1]!.text) : null;
      if (!h || !def) continue;
      const name = h[2]!.replace(/^test /, '');
      const related = [lines[i + 1]!.n];
      const message: string[] = [];
      const entries: { n: number; app?: string; path: string; line: number; what: string }[] = [];
      let inTrace = false;
      let blanks = 0;
      let j = i + 2;
      for (; j < lines.length && j - i < MAX_BLOCK * 4; j++) {
        const { n, text } = lines[j]!;
        if (HEADER.test(text) || END.test(text)) break;
        if (text.trim() === '') {
          if (++blanks >= 2) break;
          continue;
        }
        blanks = 0;
        // The block is indented; progress dots or the next file's output are not.
        if (!/^\s/.test(text)) break;
        if (related.length < MAX_BLOCK) related.push(n);
        if (text.trim() === 'stacktrace:') {
          inTrace = true;
          continue;
        }
        const e = inTrace ? ENTRY.exec(text) : null;
        if (e) entries.push({ n, app: e[1], path: e[2]!, line: Number(e[3]), what: e[4]! });
        else if (!inTrace && message.length < 3 && !text.trim().startsWith('code:')) message.push(text.trim());
      }
      // The assertion's own line is the trace's entry in the test file; else the test's definition.
      const testPath = def[1]!;
      const inTest = entries.find((e) => e.path === testPath);
      const s: Signal = { kind: 'test', symbol: name, message: message.join(' ') || name, tool: 'exunit', category: 'test', weight: 0.9,
        logLine: lines[i]!.n, related, path: testPath, line: inTest?.line ?? Number(def[2]) };
      out.push(s);
      for (const e of entries) {
        if (e === inTest) continue;
        out.push({ kind: 'frame', path: e.path, line: e.line, symbol: e.what.replace(/\/\d+$/, '').replace(/^.*\./, ''), message: e.what,
          tool: 'exunit', weight: e.app && STDLIB.has(e.app) ? 0.05 : 0.6, logLine: e.n });
      }
      i = j - 1;
    }
    return out;
  },
};
