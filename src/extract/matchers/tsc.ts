import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

// Unanchored on purpose: the path is whatever precedes the match, so paths with spaces or parentheses
// (Next.js route groups like `app/(auth)/page.tsx`) survive, and the scan stays linear.
const PLAIN = /\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
const PRETTY = /:(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/;
// Project-wide errors (bad tsconfig, missing lib) carry no location but still fail the build.
const GLOBAL = /^(error|warning) (TS\d+): (.*)$/;
// Monorepo runners prefix each line (`web:build: `, `@acme/ui: `); a path never contains ": ".
const RUNNER_PREFIX = /^.*: /;
const MODULE_NOT_FOUND = /^Cannot find module '([^']*)'/;
const NO_DECLARATION = /^Could not find a declaration file for module '([^']*)'/;

/** TS2307 on a package name is a missing dependency; on a relative path or an alias it is a code bug. */
function categoryOf(code: string, message: string): Category {
  const found =
    code === 'TS2307' ? MODULE_NOT_FOUND.exec(message) : code === 'TS7016' ? NO_DECLARATION.exec(message) : null;
  if (!found) return 'compile';
  const spec = found[1] ?? '';
  const local = spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('@/') || spec.startsWith('~/');
  return local ? 'compile' : 'dependency';
}

function cleanPath(raw: string): string {
  const path = raw.trim();
  return path.includes(': ') ? path.replace(RUNNER_PREFIX, '') : path;
}

/**
 * Lines that continue a diagnostic: tsc indents the elaboration ("  Property 'x' is missing…") right
 * under the header; a blank line or anything flush-left ends it (the pretty code frame starts flush-left).
 */
function continuation(lines: readonly LogLine[], from: number): number[] {
  const out: number[] = [];
  for (let j = from; j < lines.length && out.length < 20; j++) {
    const text = lines[j]!.text;
    if (text === '' || !/^\s/.test(text)) break;
    out.push(lines[j]!.n);
  }
  return out;
}

// Pretty output puts a code frame under each error: `12   foo(x)` rows (indented when they belong to
// related information) and `~~~` underlines. They are code, not part of the message.
const FRAME_ROW = /^\s*\d+ /;
const UNDERLINE = /^\s*~+$/;

/**
 * The related information `--pretty` prints after the code frame ("  src/b.ts:3:10", then "An argument
 * for 'b' was not provided."): it belongs to the diagnostic, the frames around it do not.
 */
function prettyRelated(lines: readonly LogLine[], from: number): number[] {
  const out: number[] = [];
  for (let j = from; j < lines.length && j - from < 60; j++) {
    const text = lines[j]!.text;
    if (text === '' || FRAME_ROW.test(text) || UNDERLINE.test(text)) continue;
    if (!/^\s/.test(text) || PRETTY.test(text)) break;
    out.push(lines[j]!.n);
  }
  return out;
}

/** Reads TypeScript compiler diagnostics: `a.ts(12,5): error TS…` and the `--pretty` `a.ts:12:5 - error TS…`. */
export const tscMatcher: Matcher = {
  id: 'tsc',
  extract(lines) {
    const signals: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (!text.includes('TS')) continue;
      const plain = PLAIN.exec(text);
      const m = plain ?? PRETTY.exec(text);
      if (m) {
        const path = cleanPath(text.slice(0, m.index));
        if (path === '') continue;
        const [, line, column, severity, code, rest] = m;
        const message = `${code}: ${rest}`;
        const related = continuation(lines, i + 1);
        if (!plain) related.push(...prettyRelated(lines, i + 1 + related.length));
        signals.push({
          kind: 'diagnostic',
          path,
          line: Number(line),
          column: Number(column),
          message,
          tool: 'tsc',
          severity: severity as 'error' | 'warning',
          category: categoryOf(code!, rest!),
          weight: severity === 'error' ? 1.0 : 0.3,
          logLine: n,
          ...(related.length ? { related } : {}),
        });
        continue;
      }
      const g = GLOBAL.exec(text);
      if (g) {
        const [, severity, code, rest] = g;
        signals.push({
          kind: 'diagnostic',
          message: text,
          tool: 'tsc',
          severity: severity as 'error' | 'warning',
          category: categoryOf(code!, rest!),
          weight: 0.8,
          logLine: n,
        });
      }
    }
    return signals;
  },
};
