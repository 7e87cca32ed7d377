import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** Longer lines are serialized blobs, not a lint issue: skipping them bounds the regex. */
const MAX_LINE = 4000;
/** The source line and the `~~~` (or `^`) marker lint prints under an issue. */
const MAX_EXCERPT = 2;
// The text reporter (Gradle's console and lint-results-*.txt): `app/src/main/res/values/colors.xml:3: Warning:
// The resource R.color.x appears to be unused [UnusedResources]`. File-level issues have no line. Severities
// are capitalised, which keeps compilers' lowercase `error:` lines out.
const ISSUE = /^(\S[^:]*?)(?::(\d+))?: (Fatal|Error|Warning|Information): (.+) \[([A-Z]\w+)\]$/;
const MARKER = /^\s*[~^]+\s*$/;

/**
 * Reads Android lint's text report: `file:line: Error: message [IssueId]` with the source line and marker
 * beneath. Errors and fatal issues are what abort the build (`Lint found errors in the project; aborting
 * build.`); warnings keep their location but weigh less.
 */
export const androidLintMatcher: Matcher = {
  id: 'android-lint',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.endsWith(']')) continue;
      const m = ISSUE.exec(text);
      if (!m) continue;
      const related: number[] = [];
      for (let j = i + 1; j < lines.length && related.length < MAX_EXCERPT; j++) {
        const t = lines[j]!.text;
        if (t.trim() === '' || ISSUE.test(t)) break;
        related.push(lines[j]!.n);
        if (MARKER.test(t)) break;
      }
      const error = m[3] === 'Error' || m[3] === 'Fatal';
      const s: Signal = { kind: 'diagnostic', path: m[1]!, symbol: m[5]!, message: `${m[4]!.trim()} [${m[5]}]`, tool: 'android-lint',
        severity: error ? 'error' : 'warning', category: 'lint', weight: error ? 0.95 : 0.4, logLine: lines[i]!.n, related };
      if (m[2]) s.line = Number(m[2]);
      out.push(s);
    }
    return out;
  },
};
