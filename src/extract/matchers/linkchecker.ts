import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Broken links read per log: a dead host breaks every page's link to it; the first ones say enough. */
const MAX_LINKS = 100;
/** Lines of one record (`URL`, `Name`, `Parent URL`, `Real URL`, `Check time`, `Info`…, `Result`). */
const MAX_RECORD = 15;
// LinkChecker's text output: one record per checked link, a field name padded to 11 columns, then the value.
const URL = /^URL {8}`(.*)'$/;
// `Parent URL file:///home/runner/work/x/x/docs/a.html, line 11, col 19` (or an http URL of a served site).
const PARENT = /^Parent URL (\S+?)(?:, line (\d+))?(?:, col (\d+))?$/;
const RESULT = /^Result {5}(Error|Valid|Warning): ?(.*)$/;

/** Reads LinkChecker's broken links (`Result     Error: …`), pinned to the page and line of the `Parent URL` that holds the link. */
export const linkcheckerMatcher: Matcher = {
  id: 'linkchecker',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length && out.length < MAX_LINKS; i++) {
      const u = lines[i]!.text.startsWith('URL ') ? URL.exec(lines[i]!.text) : null;
      if (!u) continue;
      const related: number[] = [];
      let parent: RegExpExecArray | null = null;
      let result: RegExpExecArray | null = null;
      let j = i + 1;
      for (; j < lines.length && j - i <= MAX_RECORD; j++) {
        const t = lines[j]!.text;
        if (t.trim() === '' || t.length > MAX_LINE) break;
        related.push(lines[j]!.n);
        parent ??= PARENT.exec(t);
        const r = RESULT.exec(t);
        if (r) {
          result = r;
          break;
        }
      }
      const header = lines[i]!.n;
      i = j;
      if (result?.[1] !== 'Error') continue;
      const s: Signal = { kind: 'diagnostic', symbol: u[1]!, message: `broken link ${u[1]}: ${result[2]}`, tool: 'linkchecker',
        severity: 'error', category: 'lint', weight: 0.8, logLine: header, related };
      // A served site's parent is an http URL, which names no file in the checkout: the link stays the symbol.
      if (parent?.[1]!.startsWith('file://')) {
        s.path = decodeURIComponent(parent[1]!.slice('file://'.length));
        if (parent[2]) s.line = Number(parent[2]);
        if (parent[3]) s.column = Number(parent[3]);
      }
      out.push(s);
    }
    return out;
  },
};
