import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Dead links read per log: a site-wide outage makes thousands; the first ones say enough. */
const MAX_LINKS = 100;
// markdown-link-check: `FILE: docs/guide.md`, then `  [✖] setup.md#quick-start → Status: 400` (repeated in its summary).
const FILE = /^FILE: (\S.*)$/;
const DEAD = /^\s*\[✖\] (\S+)(?: → Status: (\d+))?(?: (.*))?$/;

/**
 * Reads link checkers' dead links (markdown-link-check's `[✖] url → Status: N` under `FILE: x.md`). The
 * report names the file but no line: the link itself is the symbol, which the locator can find in it.
 */
export const linkCheckMatcher: Matcher = {
  id: 'link-check',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const seen = new Map<string, Signal>();
    let file: { path: string; n: number } | undefined;
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      const f = FILE.exec(text);
      if (f) {
        file = { path: f[1]!, n };
        continue;
      }
      const d = file && text.includes('[✖]') ? DEAD.exec(text) : null;
      if (!d) continue;
      const key = `${file!.path} ${d[1]}`;
      const known = seen.get(key);
      if (known) {
        known.related!.push(n);
        continue;
      }
      if (seen.size >= MAX_LINKS) continue;
      const s: Signal = { kind: 'diagnostic', path: file!.path, symbol: d[1]!, message: `dead link ${d[1]}${d[2] ? ` (status ${d[2]})` : ''}`,
        tool: 'link-check', severity: 'error', category: 'lint', weight: 0.8, logLine: n, related: [file!.n] };
      seen.set(key, s);
      out.push(s);
    }
    return out;
  },
};
