import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// The string formatter: the file on its own line, then `  3:3   ✖  Unexpected unknown property "colr"  property-no-unknown`.
const FILE = /^(\S.*\.(?:css|scss|sass|less|sss|pcss|vue|svelte|html|astro|[jt]sx?))$/;
const PROBLEM = /^\s+(\d+):(\d+)\s+([✖⚠×‼])\s+(.+?)\s{2,}([\w@/-]+)$/;
// The compact and unix formatters: `styles/site.css:3:3: Unexpected unknown property "colr" (property-no-unknown) [error]`.
const UNIX = /^(\S.*?\.(?:css|scss|sass|less|vue|svelte|html)):(\d+):(\d+): (.+) \(([\w@/-]+)\) \[(error|warning)\]$/;

/** Reads stylelint's string formatter (file line, then `L:C ✖ message rule`) and its unix/compact formats. */
export const stylelintMatcher: Matcher = {
  id: 'stylelint',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let file: { path: string; n: number } | undefined;
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      // Cheap gates first: most lines of a long log are neither a file name nor a finding.
      const f = !text.includes(' ') && text.includes('.') ? FILE.exec(text) : null;
      if (f) {
        file = { path: f[1]!, n };
        continue;
      }
      const p = file ? PROBLEM.exec(text) : null;
      const u = p || !text.endsWith(']') ? null : UNIX.exec(text);
      if (!p && !u) {
        if (text.trim() === '' || !/^\s/.test(text)) file = text.trim() === '' ? file : undefined;
        continue;
      }
      const warning = p ? p[3] === '⚠' || p[3] === '‼' : u![6] === 'warning';
      const [path, line, column, message, rule] = p ? [file!.path, p[1]!, p[2]!, p[4]!, p[5]!] : [u![1]!, u![2]!, u![3]!, u![4]!, u![5]!];
      // A CssSyntaxError is a file stylelint could not parse: a broken stylesheet, not a style question.
      const syntax = rule === 'CssSyntaxError';
      out.push({ kind: 'diagnostic', path, line: Number(line), column: Number(column), symbol: rule, message: `${message} (${rule})`, tool: 'stylelint',
        severity: warning ? 'warning' : 'error', category: syntax ? 'compile' : 'lint', weight: warning ? 0.3 : 1, logLine: n,
        related: p ? [file!.n] : [] });
    }
    return out;
  },
};
