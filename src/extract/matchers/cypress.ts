import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isLibraryPath, parseV8Frame } from './frames-v8.js';
import { servedSourcePath } from './served-source-path.js';

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
/** The repository path a Cypress frame's URL stands for (see served-source-path.ts), or null for Cypress's own runner bundle. */
export const cypressSpecPath = servedSourcePath;

/**
 * Reads `cypress run`: the failing tests (mocha's `N) Suite test:` blocks), pinned to the first frame that maps
 * from Cypress's served URLs (`/__cypress/tests?p=…`, `webpack://…`) to a spec or source file outside
 * libraries; and a spec that failed to bundle (`Oops...we found an error preparing this test file:`) as a
 * compile error on that spec. mocha.ts reads the same blocks as plain mocha failures.
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
        // parseV8Frame has already mapped a served URL to its path; a frame that kept its URL is Cypress's runner.
        const f = !at && t.trimStart().startsWith('at ') && /\(?(?:https?|webpack):\/\//.test(t) ? parseV8Frame(t) : null;
        if (f && !/^[a-z]+:\/\//.test(f.path) && !isLibraryPath(f.path)) at = { path: f.path, line: f.line, column: f.column };
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
