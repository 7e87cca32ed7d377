import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { frameSignal, isLibraryPath, parseV8Frame, parseV8FrameBody, type V8Frame } from './frames-v8.js';

// spec reporter: `✖ name (1.2ms)`, the error indented below; `test at file:line:col` in the summary.
const SPEC_FAIL = /^(\s*)✖ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/;
// eslint's and stylelint's closing line (`✖ 2 problems (2 errors, 0 warnings)`) is no test.
const LINT_SUMMARY = /^✖ \d+ problems? \(/;
const SPEC_SUITE = /^(\s*)▶ (.+)$/;
const SPEC_TEST_AT = /^test at (.+):(\d+):(\d+)$/;
// TAP reporter: `not ok 2 - name`, then a YAML block two spaces deeper.
const TAP_NOT_OK = /^(\s*)not ok \d+ - (.+)$/;
const TAP_SUBTEST = /^(\s*)# Subtest: (.+)$/;
const LOCATION = /^\s*location: '(.+):(\d+):(\d+)'$/;
const YAML_KEY = /^(\s*)([A-Za-z_]+): ?(.*)$/;
const MAX_RELATED = 30;

interface Failure {
  title: string;
  name: string;
  header: number;
  message?: { n: number; text: string };
  related: number[];
  frames: { frame: V8Frame; n: number; text: string }[];
  location?: V8Frame;
  skip?: boolean;
}

const indentOf = (s: string) => s.length - s.trimStart().length;
// The summary's `test at` path is relative to the cwd while stack frames are absolute.
const samePath = (frame: string, file: string) => frame === file || frame.endsWith('/' + file);
const unquote = (s: string) => s.replace(/^'(.*)'$/, '$1');

function toSignals(f: Failure, emitFrames: boolean): Signal[] {
  if (!f.message || f.skip) return [];
  const test: Signal = {
    kind: 'test', symbol: f.title, message: f.message.text, tool: 'node-test', category: 'test',
    weight: 0.9, logLine: f.header,
  };
  // The assertion is the frame in the test's own file; without a location, the first non-library frame.
  const file = f.location?.path;
  const own =
    (file ? f.frames.find((x) => samePath(x.frame.path, file)) : undefined) ??
    (file ? undefined : f.frames.find((x) => !isLibraryPath(x.frame.path)));
  const at = own?.frame ?? f.location;
  if (at) Object.assign(test, { path: at.path, line: at.line, column: at.column });
  test.related = [f.message.n, ...f.related];
  const frames = emitFrames ? f.frames.map((x) => frameSignal(x.frame, 'node-test', x.n, x.text)) : [];
  return [test, ...frames];
}

/** spec reporter: failing tests in the tree, then again (with `test at`) under "failing tests:". */
function readSpec(lines: readonly LogLine[]): Failure[] {
  const found: Failure[] = [];
  const suites: { indent: number; name: string }[] = [];
  let cur: (Failure & { indent: number }) | null = null;
  let pendingAt: V8Frame | undefined;
  let inSummary = false;
  for (const l of lines) {
    const text = l.text;
    if (cur && text.trim() !== '' && indentOf(text) <= cur.indent) cur = null;
    if (cur) {
      const trimmed = text.trim();
      if (trimmed === '') continue;
      if (!cur.message) cur.message = { n: l.n, text: trimmed };
      else if (LOCATION.test(text)) {
        const m = LOCATION.exec(text)!;
        cur.location ??= { path: m[1]!, line: Number(m[2]), column: Number(m[3]) };
      } else {
        const frame = text.includes('at ') ? parseV8Frame(text) : null;
        if (frame) cur.frames.push({ frame, n: l.n, text });
        else if (cur.frames.length === 0 && cur.related.length < MAX_RELATED) cur.related.push(l.n);
      }
      continue;
    }
    if (text === '✖ failing tests:') { inSummary = true; continue; }
    const at = SPEC_TEST_AT.exec(text);
    if (at) { pendingAt = { path: at[1]!, line: Number(at[2]), column: Number(at[3]) }; continue; }
    const suite = SPEC_SUITE.exec(text);
    if (suite) {
      const indent = suite[1]!.length;
      while (suites.length && suites[suites.length - 1]!.indent >= indent) suites.pop();
      suites.push({ indent, name: suite[2]! });
      continue;
    }
    const fail = LINT_SUMMARY.test(text) ? null : SPEC_FAIL.exec(text);
    if (!fail) continue;
    const indent = fail[1]!.length;
    const name = fail[2]!;
    while (suites.length && suites[suites.length - 1]!.indent >= indent) suites.pop();
    const title = inSummary ? name : [...suites.map((s) => s.name), name].join(' > ');
    cur = { title, name, header: l.n, related: [], frames: [], indent, location: pendingAt, skip: inSummary };
    pendingAt = undefined;
    if (inSummary) {
      // The summary repeats a tree entry: lend it the location instead of reporting the test twice.
      const twin = found.find((f) => f.name === name && !f.location);
      if (twin) twin.location = cur.location;
      else cur.skip = false;
    }
    found.push(cur);
  }
  return found;
}

/** TAP reporter: `not ok` plus its YAML block (location, error, expected, actual, stack). */
function readTap(lines: readonly LogLine[]): Failure[] {
  const found: Failure[] = [];
  const subtests: string[] = [];
  let cur: (Failure & { indent: number }) | null = null;
  let key = '';
  for (const l of lines) {
    const text = l.text;
    const sub = TAP_SUBTEST.exec(text);
    if (sub) { subtests.length = Math.floor(sub[1]!.length / 4); subtests.push(sub[2]!); continue; }
    const no = TAP_NOT_OK.exec(text);
    if (no) {
      const name = no[2]!.replace(/ # (?:SKIP|TODO)\b.*$/, '');
      const level = Math.floor(no[1]!.length / 4);
      const title = [...subtests.slice(0, level), name].join(' > ');
      cur = { title, name, header: l.n, related: [], frames: [], indent: no[1]!.length, skip: / # (?:SKIP|TODO)\b/.test(no[2]!) };
      found.push(cur);
      continue;
    }
    if (!cur || text.trim() === '' || text.trim() === '---') continue;
    if (text.trim() === '...' || indentOf(text) <= cur.indent) { cur = null; continue; }
    const kv = YAML_KEY.exec(text);
    if (kv && kv[1]!.length === cur.indent + 2) {
      key = kv[2]!;
      const value = kv[3]!;
      if (key === 'location') {
        const m = LOCATION.exec(text);
        if (m) cur.location = { path: m[1]!, line: Number(m[2]), column: Number(m[3]) };
      } else if (key === 'failureType' && value.includes('subtestsFailed')) cur.skip = true;
      else if (key === 'error' && !value.startsWith('|')) cur.message = { n: l.n, text: unquote(value) };
      else if ((key === 'expected' || key === 'actual') && cur.related.length < MAX_RELATED) cur.related.push(l.n);
      continue;
    }
    if (key === 'error') {
      if (!cur.message) cur.message = { n: l.n, text: text.trim() };
      else if (cur.related.length < MAX_RELATED) cur.related.push(l.n);
    } else if (key === 'stack') {
      const frame = parseV8FrameBody(text.trim());
      if (frame) cur.frames.push({ frame, n: l.n, text });
    }
  }
  return found;
}

/** Reads node:test's spec and TAP reporters: failing tests with their error, diff, location and stack. */
export const nodeTestMatcher: Matcher = {
  id: 'node-test',
  extract(lines: readonly LogLine[]): Signal[] {
    // Spec stacks carry `at`, so the V8 frame matcher already reports them; TAP stacks do not.
    const spec = readSpec(lines).flatMap((f) => toSignals(f, false));
    const tap = readTap(lines).flatMap((f) => toSignals(f, true));
    return [...spec, ...tap].sort((a, b) => a.logLine - b.logLine);
  },
};
