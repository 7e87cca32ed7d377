import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines kept as related per failure: the YAML block's operator/expected/actual/diff come first, a long stack is cut. */
const MAX_BLOCK = 40;
/** Lines read into one YAML block before giving up on its `...` terminator (a truncated log). */
const MAX_YAML = 200;
// `not ok 2 - name`, `not ok 2 name` (tape, bats), `    not ok 1 - name # time=3ms` (node-tap subtests).
const NOT_OK = /^(\s*)not ok \d+(?: -)?(?: (.*?))?(?: # (?:time=\S+|(TODO|SKIP)\b.*))?$/i;
const YAML_START = /^(\s*)---$/;
const YAML_END = /^\s*\.\.\.$/;
// tape: `at: Test.<anonymous> (/abs/test/x.js:10:5)` or `at: /abs/test/x.js:10:5`.
const TAPE_AT = /^\s*at: (?:.*\()?([^()\s]+?):(\d+):(\d+)\)?$/;
// node-tap: `at:` then `fileName: test/x.js` / `lineNumber: 9` one level deeper.
const FILE_NAME = /^\s*fileName: (.+)$/;
const LINE_NUMBER = /^\s*lineNumber: (\d+)$/;
// Node's own test runner speaks TAP too; its `location:` / `failureType:` blocks are node-test's to read.
const NODE_TEST_KEY = /^\s*(?:failureType|location): /;
// Perl Test::More on stderr: `#   Failed test 'name'` + `#   at t/x.t line 7.`, or `#   Failed test at t/x.t line 7.`
const PERL_FAILED = /^#\s+Failed (?:\(TODO\) )?test(?: '(.*?)'| (?=at ))?(?:\s*at (.+?) line (\d+)\.)?$/;
const PERL_AT = /^#\s+at (.+?) line (\d+)\.$/;
// bats: `# (in test file test/x.bats, line 5)`, `# (from function `f' in file lib/x.bash, line 3,`.
const BATS_AT = /^#\s+\((?:in test file|from function [`'].*?' in file) (.+?), line (\d+)[,)]/;
// busted -o TAP: `# spec/slug_spec.lua @ 9` (the `it` block's line).
const BUSTED_AT = /^#\s+(\S+?\.(?:lua|moon)) @ (\d+)$/;

interface Failure { n: number; name: string; path?: string; line?: number; related: number[]; perl?: boolean; indent?: number; expected?: string; actual?: string; last?: string }
/**
 * What a failure's last `#` diagnostic says, its label (`output:`, `actual:`) and quotes left out and numbers
 * masked: bats prints N tests failing on one broken command back to back, each ending in the command's same
 * error (`#  output: …/pyenv-version: line 12: pyenv-version-nam: command not found`). The first is quoted.
 */
function causeKey(last: string | undefined): string | undefined {
  if (last === undefined) return undefined;
  const k = last.replace(/^#\s*/, '').replace(/^(?:output|actual|got|stderr):\s*/i, '').replace(/^[`']+|[`']+$/g, '').replace(/\d+/g, '0').trim();
  return k.length >= MIN_CAUSE_KEY ? k : undefined;
}
/** A shorter last line (`actual: ''`, `1`) says too little to call two failures one cause. */
const MIN_CAUSE_KEY = 12;
// A test point at any depth, passing or failing: it closes the subtests nested under the previous one.
const TEST_POINT = /^(\s*)(?:not )?ok \d+\b/;
const EXPECTED = /^\s*expected: +(\S.*)$/;
const ACTUAL = /^\s*actual: +(\S.*)$/;

function addRelated(f: Failure, n: number): void {
  if (f.related.length < MAX_BLOCK) f.related.push(n);
}

/** Reads a YAML diagnostic block after `not ok` into the failure; returns the index of its last line, or -1 for node-test's. */
function readYaml(lines: readonly LogLine[], start: number, f: Failure): number {
  let i = start + 1;
  let fileName: string | undefined;
  for (; i < lines.length && i - start < MAX_YAML; i++) {
    const { n, text } = lines[i]!;
    if (YAML_END.test(text)) {
      addRelated(f, n);
      break;
    }
    if (NODE_TEST_KEY.test(text)) return -1;
    if (text.trim() !== '') addRelated(f, n);
    const ex = EXPECTED.exec(text);
    if (ex && !ex[1]!.startsWith('|')) f.expected = ex[1];
    const ac = ACTUAL.exec(text);
    if (ac && !ac[1]!.startsWith('|')) f.actual = ac[1];
    if (f.path) continue;
    const at = TAPE_AT.exec(text);
    if (at) Object.assign(f, { path: at[1], line: Number(at[2]) });
    const fn = FILE_NAME.exec(text);
    if (fn) fileName = fn[1];
    const ln = fileName ? LINE_NUMBER.exec(text) : null;
    if (ln) Object.assign(f, { path: fileName, line: Number(ln[1]) });
  }
  return i;
}

function toSignal(f: Failure, seen: Set<string>): Signal {
  const values = f.expected !== undefined && f.actual !== undefined ? ` (expected: ${f.expected}, actual: ${f.actual})` : '';
  const s: Signal = { kind: 'test', symbol: f.name, message: f.name + values, tool: 'tap', category: 'test', weight: 0.9, logLine: f.n, related: f.related };
  if (f.path) Object.assign(s, { path: f.path, line: f.line });
  const key = causeKey(f.last);
  if (key !== undefined) {
    if (seen.has(key)) s.restatement = true;
    seen.add(key);
  }
  return s;
}

/**
 * Reads TAP from any producer: `not ok` lines with their YAML blocks (tape's `at:`, node-tap's
 * `fileName`/`lineNumber`, operator/expected/actual/diff), Perl Test::More's `# Failed test … at t/x.t
 * line N.` diagnostics (prove), and bats' `# (in test file x.bats, line N)`.
 */
export const tapMatcher: Matcher = {
  id: 'tap',
  extract(lines: readonly LogLine[]): Signal[] {
    const failures: Failure[] = [];
    const perl: Failure[] = [];
    let open: Failure | undefined;
    // The log line of the latest test point at each indentation, to tell a parent's summary `not ok`
    // (node-tap, node's runner: its subtests failed just above it, nested deeper) from a failure of its own.
    const lastPoint = new Map<number, number>();
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      const point = text.includes('ok ') ? TEST_POINT.exec(text) : null;
      const indent = point ? point[1]!.length : 0;
      const since = point ? lastPoint.get(indent) ?? 0 : 0;
      if (point) lastPoint.set(indent, n);
      const nok = point && text.includes('not ok') ? NOT_OK.exec(text) : null;
      if (nok) {
        open = undefined;
        if (nok[3]) continue; // TODO and SKIP failures do not fail the run.
        const f: Failure = { n, name: nok[2]?.trim() || text.trim(), related: [], indent };
        const aggregate = failures.some((c) => c.n > since && (c.indent ?? 0) > indent);
        const next = lines[i + 1];
        if (next && YAML_START.test(next.text)) {
          const end = readYaml(lines, i + 1, f);
          if (end < 0) continue;
          f.related.unshift(next.n);
          i = end;
        } else open = f; // bats and prove -v put `#` diagnostics right under the `not ok` line.
        if (!aggregate) failures.push(f);
        continue;
      }
      if (!text.startsWith('#')) {
        if (text.trim() !== '') open = undefined;
        continue;
      }
      const pf = PERL_FAILED.exec(text);
      if (pf) {
        const f: Failure = { n, name: pf[1] ?? '', related: [], perl: true };
        if (pf[2]) Object.assign(f, { path: pf[2], line: Number(pf[3]) });
        perl.push(f);
        open = f;
        continue;
      }
      if (!open || text.startsWith('# Looks like you failed')) {
        open = undefined;
        continue;
      }
      addRelated(open, n);
      open.last = text;
      const at = open.path ? null : PERL_AT.exec(text) ?? BATS_AT.exec(text) ?? BUSTED_AT.exec(text);
      if (at) Object.assign(open, { path: at[1], line: Number(at[2]) });
    }
    // prove prints `not ok` on stdout and the diagnostics on stderr, in either order: one failure, two halves.
    const out: Failure[] = [];
    const unmatched = [...perl];
    for (const f of failures) {
      const k = unmatched.findIndex((p) => p.name === f.name || (p.name === '' && f.name === ''));
      if (k >= 0 && !f.path) {
        const p = unmatched.splice(k, 1)[0]!;
        out.push({ ...f, path: p.path, line: p.line, related: [...f.related, p.n, ...p.related].slice(0, MAX_BLOCK) } as Failure);
      } else out.push(f);
    }
    for (const p of unmatched) out.push({ ...p, name: p.name || 'unnamed test' });
    const seen = new Set<string>();
    return out.sort((a, b) => a.n - b.n).map((f) => toSignal(f, seen));
  },
};
