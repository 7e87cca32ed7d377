import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// Elixir ≤ 1.14: `** (CompileError) lib/a.ex:8: undefined function …`, `** (SyntaxError) lib/a.ex:6:3: …`.
const RAISED = /^\*\* \((CompileError|SyntaxError|TokenMissingError|MismatchedDelimiterError|KeyError|ArgumentError|UndefinedFunctionError)\) (\S+?\.(?:exs?|eex|heex)):(\d+)(?::(\d+))?: (.*)$/;
// Elixir ≥ 1.15 prints `error: …` / `warning: …` and ends the snippet with `└─ lib/a.ex:8:8: Mod.fun/1`.
const HEADER = /^(error|warning): (.*)$/;
const POINTER = /^\s*└─ (\S+?\.(?:exs?|eex|heex)):(\d+)(?::(\d+))?(?:: (.*))?$/;
// Elixir ≤ 1.14 puts a warning's location on the next line: `  lib/a.ex:6: Mod.fun/2`.
const OLD_LOCATION = /^\s{2}(\S+?\.(?:exs?|eex|heex)):(\d+)(?::(\d+))?(?:: (.*))?$/;
const WARNINGS_AS_ERRORS = /^Compilation failed due to warnings while using the --warnings-as-errors option$/;
/** Lines between a 1.15-style header and its `└─` pointer: the quoted code is a few lines. */
const MAX_SNIPPET = 12;

/** Reads the Elixir compiler (mix compile): raised CompileError/SyntaxError lines and `error:`/`warning:` blocks with their location. */
export const elixirMatcher: Matcher = {
  id: 'elixir',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const warnings: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      if (WARNINGS_AS_ERRORS.test(text)) {
        // The warnings above failed the build: they are its errors now.
        for (const w of warnings) Object.assign(w, { severity: 'error', weight: 0.9, related: [...(w.related ?? []), n] });
        continue;
      }
      const r = text.startsWith('** (') ? RAISED.exec(text) : null;
      if (r) {
        const related = lines[i - 1]?.text.startsWith('== Compilation error in file') ? [lines[i - 1]!.n] : [];
        const s: Signal = { kind: 'diagnostic', path: r[2]!, line: Number(r[3]), message: `${r[1]}: ${r[5]}`, tool: 'elixir',
          severity: 'error', category: 'compile', weight: 1, logLine: n, related };
        if (r[4]) s.column = Number(r[4]);
        out.push(s);
        continue;
      }
      const h = text.startsWith('error: ') || text.startsWith('warning: ') ? HEADER.exec(text) : null;
      if (!h) continue;
      const related: number[] = [];
      let at: RegExpExecArray | null = null;
      for (let j = i + 1; j < lines.length && j - i <= MAX_SNIPPET; j++) {
        const t = lines[j]!.text;
        const p = POINTER.exec(t) ?? (j === i + 1 ? OLD_LOCATION.exec(t) : null);
        if (p) {
          related.push(lines[j]!.n);
          at = p;
          break;
        }
        if (!/^\s*(?:│|\d+ │|\s*$)/.test(t)) break;
        related.push(lines[j]!.n);
      }
      if (!at) continue;
      const warning = h[1] === 'warning';
      const s: Signal = { kind: 'diagnostic', path: at[1]!, line: Number(at[2]), message: h[2]!, tool: 'elixir',
        severity: warning ? 'warning' : 'error', category: 'compile', weight: warning ? 0.3 : 1, logLine: n, related };
      if (at[3]) s.column = Number(at[3]);
      if (at[4]) s.symbol = at[4].replace(/\/\d+$/, '').replace(/^.*\./, '');
      out.push(s);
      if (warning) warnings.push(s);
    }
    return out;
  },
};
