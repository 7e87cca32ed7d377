import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one assertion kept as related: `Expected equality` with two `Which is:` values is ~6; a long container diff is cut. */
const MAX_BLOCK = 30;
const RUN = /^\[ RUN {6}\] (\S+)$/;
const FAILED = /^\[ {2}FAILED {2}\] (\S+?)(?:, where .*)?(?: \(\d+ ms\))?$/;
// `/src/tests/a_test.cpp:13: Failure`, MSVC's `C:\src\a_test.cpp(13): error: Value of: x`, `unknown file: Failure`.
const FAILURE = /^(.+?)(?::(\d+)|\((\d+)\)): (?:Failure|error: (.*))$/;
const UNKNOWN = /^unknown file: (?:Failure|error: .*)$/;
const BLOCK_END = /^\[ {2}FAILED {2}\]|^\[ RUN {6}\]|^\[ {7}OK \]|^\[ {2}SKIPPED \]|^\[-{10}\]|^\[={10}\]/;

/** Reads GoogleTest output: `file:line: Failure` + the expected/actual lines under it, inside `[ RUN ] Suite.Test`. */
export const gtestMatcher: Matcher = {
  id: 'gtest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const seen = new Set<string>();
    let current: string | undefined;
    let open: Signal | undefined;
    for (const l of lines) {
      const text = l.text;
      if (text.length > MAX_LINE) continue;
      if (text.startsWith('[ ') || text.startsWith('[-') || text.startsWith('[=')) {
        const run = RUN.exec(text);
        if (run) current = run[1];
        const failed = FAILED.exec(text);
        if (failed) {
          const name = failed[1]!;
          if (open && open.symbol === name) (open.related ??= []).push(l.n);
          // The list after `N FAILED TESTS, listed below:` repeats each failure: a test without an
          // assertion block (a crash, a thrown exception) is known only from it.
          else if (!seen.has(name) && !text.endsWith(' ms)')) {
            out.push({ kind: 'test', symbol: name, message: text, tool: 'gtest', category: 'test', weight: 0.5, logLine: l.n });
            seen.add(name);
          }
        }
        if (BLOCK_END.test(text)) open = undefined;
        continue;
      }
      const f = text.includes('ailure') || text.includes('error: ') ? FAILURE.exec(text) : null;
      if (f && current && !UNKNOWN.test(text) && (f[2] || f[3])) {
        open = { kind: 'test', symbol: current, path: f[1]!, line: Number(f[2] ?? f[3]), message: f[4] ?? '', tool: 'gtest',
          category: 'test', weight: 0.9, logLine: l.n, related: [] };
        out.push(open);
        seen.add(current);
        continue;
      }
      if (current && UNKNOWN.test(text)) {
        open = { kind: 'test', symbol: current, message: '', tool: 'gtest', category: 'test', weight: 0.6, logLine: l.n, related: [] };
        out.push(open);
        seen.add(current);
        continue;
      }
      if (!open) continue;
      if (open.related!.length < MAX_BLOCK && text.trim() !== '') open.related!.push(l.n);
      // `Expected equality of these values:` alone says little; with the two expressions it says what broke.
      if (open.related!.length <= 3) open.message = `${open.message} ${text.trim()}`.trim();
    }
    return out;
  },
};
