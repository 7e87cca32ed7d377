import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of the first failure read: its source, its exception and the frames the launcher kept. */
const MAX_ENTRY = 40;

// The JUnit Platform Console Launcher's report of failed tests (its `--details` tree summary, as Ant's
// `<java>` or a shell relays it): `Failures (14):`, then per failure `  JUnit Jupiter:FooTest:bar()`, its
// `    MethodSource [className = '…', …]`, `    => java.lang.RuntimeException: msg` and the frames, indented.
const HEADER = /^Failures \((\d+)\):\s*$/;
const ENTRY = /^ {2}(\S.*)$/;
const EXCEPTION = /^ {4}=> (.+)$/;
const FRAME = /^ {5,}([\w$.]+)\.([\w$<>]+)\(([\w$-]+\.\w+):(\d+)\)\s*$/;
// Frames of the JDK, JUnit and its launcher: the way in, below the project's own frames.
const RUNTIME = /^(?:sun\.|java\.|javax\.|jdk\.|com\.sun\.|org\.junit\.|org\.apache\.tools\.ant\.)/;

/**
 * Reads the JUnit Platform Console Launcher's `Failures (N):` report: the first failure, from the header
 * through its exception and its frames down to the last one outside the JDK and JUnit (the test's own frame);
 * the rest of the list restates other tests' failures, as a person quotes the first of a list.
 */
export const junitConsoleMatcher: Matcher = {
  id: 'junit-console',
  extract(lines: readonly LogLine[]): Signal[] {
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (!text.startsWith('Failures (') || text.length > MAX_LINE) continue;
      const h = HEADER.exec(text);
      const first = i + 1 < lines.length ? ENTRY.exec(lines[i + 1]!.text) : null;
      if (!h || !first) continue;
      let last = i + 1;
      let exception: string | undefined;
      for (let j = i + 2; j < lines.length && j - i <= MAX_ENTRY; j++) {
        const t = lines[j]!.text;
        if (ENTRY.test(t) || t.trim() === '') break;
        const e = EXCEPTION.exec(t);
        if (e) {
          exception ??= e[1];
          last = j;
          continue;
        }
        const f = FRAME.exec(t);
        if (f) {
          if (!RUNTIME.test(f[1]!)) last = j;
          continue;
        }
        if (!exception) last = j;
      }
      const related: number[] = [];
      for (let j = i + 1; j <= last; j++) related.push(lines[j]!.n);
      return [{
        kind: 'test',
        symbol: first[1]!.trim(),
        message: `${first[1]!.trim()} failed${exception ? `: ${exception}` : ''} (${h[1]} failures)`,
        tool: 'junit-console',
        category: 'test',
        weight: 0.9,
        logLine: lines[i]!.n,
        related,
        blockEnd: lines[last]!.n,
      }];
    }
    return [];
  },
};
