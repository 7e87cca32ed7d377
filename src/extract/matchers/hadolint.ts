import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Findings read per log: a generated Dockerfile can repeat one finding on every RUN. */
const MAX_FINDINGS = 200;
// hadolint's tty format: `Dockerfile:5 DL3008 warning: Pin versions in apt get install…` (its own rules DL…,
// and ShellCheck's SC… for the RUN scripts); the action's annotations print the same after `Error: `.
const FINDING = /^(?:Error: )?(\S.*?):(\d+) ((?:DL|SC)\d{4}) (error|warning|info|style): (.*)$/;
// A Dockerfile hadolint cannot parse: `Dockerfile:1:1 unexpected 'F' expecting '#', ADD, ARG, …`.
const PARSE = /^(\S.*?):(\d+):(\d+) (unexpected .*)$/;
// Text read from stdin is `-`, and from a string `<string>`: no file to pin.
const NO_FILE = /^(?:-|<string>)$/;
const WEIGHT: Record<string, number> = { error: 1, warning: 0.9, info: 0.6, style: 0.5 };

/** Reads hadolint's findings (`Dockerfile:5 DL3008 warning: …`) and parse errors (`Dockerfile:1:1 unexpected …`). */
export const hadolintMatcher: Matcher = {
  id: 'hadolint',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (const { n, text } of lines) {
      if (out.length >= MAX_FINDINGS) break;
      if (text.length > MAX_LINE) continue;
      const f = text.includes(' DL') || text.includes(' SC') ? FINDING.exec(text) : null;
      if (f) {
        const severity = f[4]!;
        const s: Signal = { kind: 'diagnostic', line: Number(f[2]), symbol: f[3]!, message: `${f[3]}: ${f[5]}`, tool: 'hadolint',
          severity: severity === 'error' || severity === 'warning' ? 'error' : 'warning', category: 'lint', weight: WEIGHT[severity]!,
          logLine: n };
        if (!NO_FILE.test(f[1]!)) s.path = f[1]!;
        out.push(s);
        continue;
      }
      const p = text.includes(' unexpected ') ? PARSE.exec(text) : null;
      if (p && /dockerfile|containerfile|^-$|^<string>$/i.test(p[1]!)) {
        const s: Signal = { kind: 'diagnostic', line: Number(p[2]), column: Number(p[3]), message: p[4]!.trim(), tool: 'hadolint',
          severity: 'error', category: 'compile', weight: 1, logLine: n };
        if (!NO_FILE.test(p[1]!)) s.path = p[1]!;
        out.push(s);
      }
    }
    return out;
  },
};
