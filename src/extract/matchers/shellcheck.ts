import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// tty format: `In scripts/deploy.sh line 10:`, the quoted line, then `   ^-----^ SC2154 (warning): message`.
const IN_FILE = /^In (\S.*?) line (\d+):$/;
// ShellCheck before 0.4 printed no severity: `^-- SC2123: PATH is the shell search path. …`.
const MARK = /^(\s*)\^-*\^? (SC\d{4})(?: \((error|warning|info|style)\))?: (.*)$/;
// gcc format: `scripts/deploy.sh:10:21: warning: tagret is referenced but not assigned. [SC2154]`.
const GCC = /^(\S.*?):(\d+):(\d+): (error|warning|note|style): (.*) \[(SC\d{4})\]$/;
// Errors break the script; warnings are likely bugs; info and style are hygiene. Every finding is
// lint all the same: ShellCheck is the step's linter, and a maintainer files its parse errors as lint too.
const WEIGHT: Record<string, number> = { error: 1, warning: 0.9, info: 0.6, note: 0.6, style: 0.5 };

/** Reads ShellCheck findings in its tty format (`In x.sh line N:` + `^-- SC2086 (info): …`) and gcc format. */
export const shellcheckMatcher: Matcher = {
  id: 'shellcheck',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let file: { path: string; line: number; n: number; code?: number } | undefined;
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      const f = text.startsWith('In ') ? IN_FILE.exec(text) : null;
      if (f) {
        file = { path: f[1]!, line: Number(f[2]), n };
        continue;
      }
      const m = file && text.includes(' SC') ? MARK.exec(text) : null;
      if (m && file) {
        // An unlevelled report weighs as a warning: the old tool flagged bugs and hygiene alike.
        const severity = m[3] ?? 'warning';
        out.push({ kind: 'diagnostic', path: file.path, line: file.line, column: m[1]!.length + 1, symbol: m[2]!, message: `${m[2]}: ${m[4]}`,
          tool: 'shellcheck', severity: 'error', category: 'lint', weight: WEIGHT[severity] ?? 0.6,
          logLine: n, related: [file.n, ...(file.code ? [file.code] : [])] });
        continue;
      }
      if (file && file.code === undefined && text.trim() !== '') {
        file.code = n; // the quoted source line right under `In … line N:`
        continue;
      }
      const g = text.includes('[SC') ? GCC.exec(text) : null;
      if (g) {
        out.push({ kind: 'diagnostic', path: g[1]!, line: Number(g[2]), column: Number(g[3]), symbol: g[6]!, message: `${g[6]}: ${g[5]}`,
          tool: 'shellcheck', severity: 'error', category: 'lint', weight: WEIGHT[g[4]!] ?? 0.6, logLine: n });
      }
    }
    return out;
  },
};
