import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one diagnostic kept as related: GHC's bullets, the `In …` context and the code excerpt. */
const MAX_BLOCK = 30;
// `src/A.hs:7:55: error:`, `src/A.hs:3:1: warning: [-Wunused-imports]`, GHC ≥ 9.4 `src/A.hs:6:23: error: [GHC-88464]`,
// spans `src/A.hs:(7,1)-(9,3): error:` and `src/A.hs:7:5-12: error:`; the message may follow on the same line.
const HEADER = /^(\S.*?\.(?:hs|lhs|hsc|hs-boot|x|y)):(?:(\d+):(\d+)(?:-\d+)?|\((\d+),(\d+)\)-\(\d+,\d+\)): (error|warning)(?:: ?\[([^\]]*)\])?:?\s*(.*)$/;

/** Reads GHC diagnostics (ghc, cabal, stack build): the `file.hs:7:55: error:` header and its indented bullets and excerpt. */
export const ghcMatcher: Matcher = {
  id: 'ghc',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE || !(text.includes(': error') || text.includes(': warning'))) continue;
      const h = HEADER.exec(text);
      if (!h) continue;
      const related: number[] = [];
      const message: string[] = h[8] ? [h[8]] : [];
      let j = i + 1;
      // The body is indented (bullets at 4 spaces, the excerpt as `  |` / `7 | code`); a blank line ends it.
      for (; j < lines.length && related.length < MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (t.trim() === '' || !/^\s|^\d+ \|/.test(t)) break;
        related.push(lines[j]!.n);
        if (message.length < 2 && /^\s{4}\S/.test(t)) message.push(t.trim().replace(/^• /, ''));
      }
      // -Werror turns the warning's flag into `-Werror=…`, and GHC then calls it an error.
      const werror = !!h[7]?.includes('-Werror');
      const warning = h[6] === 'warning' && !werror;
      const s: Signal = { kind: 'diagnostic', path: h[1]!, line: Number(h[2] ?? h[4]), column: Number(h[3] ?? h[5]),
        message: message.join(' ') || text, tool: 'ghc', severity: warning ? 'warning' : 'error', category: 'compile',
        weight: warning ? 0.3 : 1, logLine: n, related };
      if (h[7]) s.symbol = h[7].split(',')[0]!.trim();
      out.push(s);
      i = j - 1;
    }
    return out;
  },
};
