import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isLibraryPath, parseV8Frame } from './frames-v8.js';

/** Longer lines are bundles or serialized blobs, not a Cypress report line: skipping them bounds the regexes. */
const MAX_LINE = 2000;
/** Lines of one failure kept as related: the title's lines, the error, its diff and the spec's frames. */
const MAX_BLOCK = 30;
const FAILING_COUNT = /^\s*\d+ failing$/;
const FAILURE_HEADER = /^ {2}(\d+)\) (.+)$/;
// The error's first line: `AssertionError: …`, `CypressError: …`, `Error: …`.
const ERROR_LINE = /^\s+(?:[A-Z]\w*)?Error: /;
// `cypress run` prints this, the spec's path on its own line, then `The error was:` and the bundler's error.
const PREPARE_ERROR = /^Oops\.\.\.we found an error preparing this test file:$/;
const SPEC_LINE = /^\s+(\S+\.[cm]?[jt]sx?|\S+\.coffee)$/;
// Cypress serves the spec to the browser, so its frames name URLs: `http://localhost:3000/__cypress/tests?p=cypress/e2e/a.cy.js`
// (the bundled spec) or a webpack source-map URL `webpack://app/./cypress/e2e/a.cy.ts`, `webpack:///./cypress/e2e/a.cy.ts`.
const SERVED_SPEC = /\/__cypress\/tests\?p=([^&\s]+)$/;
const WEBPACK = /^webpack:\/\/[^/]*\/(?:\.\/)?(.+)$/;

/** The repository path a Cypress frame's URL stands for, or null for Cypress's own runner bundle and other URLs. */
export function cypressSpecPath(url: string): string | null {
  const served = SERVED_SPEC.exec(url);
  if (served) return decodeURIComponent(served[1]!).replace(/^\.\//, '');
  const wp = WEBPACK.exec(url);
  return wp ? wp[1]! : null;
}

/**
 * Reads `cypress run`: the failing tests (mocha's `N) Suite test:` blocks), pinned to the first frame that maps
 * from Cypress's served URLs (`/__cypress/tests?p=…`, `webpack://…`) to a spec or source file outside
 * libraries; and a spec that failed to bundle (`Oops...we found an error preparing this test file:`) as a
 * compile error on that spec. mocha.ts reads the same blocks but cannot map the URLs.
 */
export const cypressMatcher: Matcher = {
  id: 'cypress',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let inFailures = false;
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE) continue;
      if (PREPARE_ERROR.test(text)) {
        const spec = lines.slice(i + 1, i + 4).map((l) => SPEC_LINE.exec(l.text)).find(Boolean);
        const was = lines.slice(i + 1, i + 12).findIndex((l) => l.text === 'The error was:');
        const error = was >= 0 ? lines.slice(i + was + 2, i + was + 6).find((l) => l.text.trim() !== '') : undefined;
        if (spec) out.push({ kind: 'diagnostic', path: spec[1]!, message: error?.text.trim() ?? text, tool: 'cypress', severity: 'error',
          category: 'compile', weight: 0.9, logLine: lines[i]!.n, related: error ? [error.n] : [] });
        continue;
      }
      if (FAILING_COUNT.test(text) || /^\s+Running:\s/.test(text)) {
        inFailures = FAILING_COUNT.test(text);
        continue;
      }
      const h = inFailures ? FAILURE_HEADER.exec(text) : null;
      if (!h) continue;
      const header = lines[i]!.n;
      const title = [h[2]!.trim()];
      const related: number[] = [];
      let message: string | undefined;
      let at: { path: string; line: number; column: number } | undefined;
      let j = i + 1;
      for (; j < lines.length && related.length < MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (FAILURE_HEADER.test(t) || /^\s+\((?:Results|Screenshots|Video)\)$/.test(t)) break;
        if (t.trim() === '') continue;
        related.push(lines[j]!.n);
        if (!message && ERROR_LINE.test(t)) {
          message = t.trim();
          continue;
        }
        if (!message) {
          title.push(t.trim().replace(/:$/, ''));
          continue;
        }
        const f = !at && t.trimStart().startsWith('at ') ? parseV8Frame(t) : null;
        const path = f ? cypressSpecPath(f.path) : null;
        if (f && path && !isLibraryPath(path)) at = { path, line: f.line, column: f.column };
      }
      i = j - 1;
      // Only a block whose frames are Cypress's served URLs is Cypress's; plain mocha is mocha.ts's alone.
      if (!message || !at) continue;
      out.push({ kind: 'test', symbol: title.join(' '), message, tool: 'cypress', category: 'test', weight: 0.95, logLine: header,
        related, ...at });
    }
    return out;
  },
};
