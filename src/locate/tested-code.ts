import type { Signal } from '../types.js';
import type { Candidate } from './candidate.js';
import { mergeCandidates, wordsOf } from './candidate.js';
import { definitionAt, reachFrom, type DefSite, type SymbolGraph } from '../repo/map/symbol-graph.js';
import type { Definition } from '../repo/map/types.js';
import { importsOf, isTestFile } from '../repo/related-files.js';
import type { Workspace } from '../repo/workspace.js';

/** Failing tests followed to the code they exercise (each is one walk of the call graph). */
const MAX_ANCHORS = 4;
/** Calls followed from the test: the code it calls, and what that calls (a test helper in between). */
const REACH_DEPTH = 2;
/**
 * Where the tested code goes against the test's own line when the test failed an assertion: just below
 * it, as the first lead. Lifting it above the test line gained 7 golden cases without a diff (recorded
 * breaks are in the code by construction) but no real-pins case, and lost two held-back real pins whose
 * real fix changed the test itself (indico, sonar-php). The assertion line is what the log proves; the
 * tested code is an inference, so it is offered, not pinned.
 */
const ASSERTION_LIFT = -0.05;
/** How far below the test's line the tested code stays when the test raised an error of its own. */
const ERROR_LEAD_GAP = 0.2;
/**
 * With a diff, the changed hunks inside the definition a failed assertion checks are lifted this much
 * over other changed hunks: enough to order two changes the test reaches, far less than a frame on a
 * changed line (blame-change: 1.2 × 0.5) or the diff prior over the test's own line.
 */
const TESTED_HUNK_BONUS = 0.1;
/**
 * The evidence a lead needs to be placed above the test's line at all (below it, it is only listed): more
 * than one route, e.g. a call on the failing line and a file named for the test. On the tuned half of the
 * real pins, a lone route (an attribute read, a file only named and imported) never named the fixed file.
 */
const LIFT_EVIDENCE = 0.5;
/** A candidate needs at least this much evidence (name, call on the failing line, import) to be offered. */
const MIN_EVIDENCE = 0.35;

/**
 * An assertion failure in the test runners' words: a value compared and found wrong, not an error raised.
 * `AssertionError` and its JUnit / AssertJ / Rust / Go / jest / PHPUnit forms.
 */
const ASSERTION = /\bAssertion(?:Error|FailedError)\b|\bComparisonFailure\b|\bassertion\b.*\bfailed\b|\bexpected\b[\s\S]*\b(?:but (?:was|got|found)|got|received|to (?:be|equal|have|contain|match|throw))\b|\bexpected:?\s*<|Failed asserting|\bleft == right\b|(?:\bgot\b|\s=)\s.*\bwant(?:ed)?\b|\bexpected:[\s\S]*\bactual:|#\s+Failed test|^\s*(?:Expected|Received|expected|actual)\b|\bassert(?:_eq|_ne|Equals?|That|True|False)?\b.*(?:!=|==|failed|is not|not equal)/i;
/** An error the test raised itself (`AttributeError`, `NullPointerException`, `TypeError`): not an assertion. */
const RAISED = /\b(?!Assertion(?:Error|FailedError)\b)[A-Z]\w*(?:Error|Exception)\b/;
/** A test's setup (fixtures, `@Before`, `beforeEach`, `setUp`): an error there is the test's own, not the code's. */
const SETUP = /^(?:set_?up(?:_?class|_?method|_?module)?|before(?:_?(?:each|all|class))?|init|fixture\w*|tear_?down\w*)$/i;

/** A test file's stem reduced to the name of what it tests: `FooTest`, `test_foo`, `foo.test`, `foo_spec` → `foo`. */
export function testedStem(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return base
    .replace(/\.(?:test|spec)$/i, '')
    .replace(/^tests?_|_tests?$|_spec$|Tests?$|Spec$|IT$|TestCase$|_SUITE$/g, '')
    .replace(/[_-]/g, '')
    .toLowerCase();
}

const stemOf = (file: string) => file.slice(file.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '').replace(/[_-]/g, '').toLowerCase();
const nameWords = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && w !== 'test' && w !== 'tests' && w !== 'should');

/**
 * From a failing test to the source it exercises, as a candidate of its own: the definitions the test
 * calls (the call graph from the test's function), scored by how the failure points at them: a call on
 * the failing line (or of the value it checks), a file named for the test file (`FooTest` → `Foo`), a
 * file the test imports, and the test's name or message naming it. The best one is placed just above
 * the test's line when the test failed an assertion (the test is right, the code returned the wrong
 * thing), and below it when the test raised an error of its own or failed in its setup.
 */
export function candidatesFromTestedCode(graph: SymbolGraph, signals: readonly Signal[], candidates: readonly Candidate[], ws: Workspace, lineText: (n: number) => string | undefined): Candidate[] {
  const anchors: Candidate[] = [];
  // Scored as ranked: a test's line that several routes reached (its report and its frame) counts once, merged.
  const merged = mergeCandidates([...candidates]);
  for (const c of merged) {
    // A failing test's line, a frame in a test file, or an assertion a test binary printed as a diagnostic (C `assert`).
    const testLine = c.cause === 'test' || c.cause === 'frame' || (c.cause === 'diagnostic' && ASSERTION.test(c.message));
    if (!testLine || !isTestFile(c.file)) continue;
    if (anchors.some((a) => a.file === c.file)) continue;
    anchors.push(c);
    if (anchors.length >= MAX_ANCHORS) break;
  }
  // Code raised the error itself under a failing test: that frame is the pin already; nothing to add.
  const raised = merged.some((c) => c.cause === 'frame' && c.depth === 0 && !isTestFile(c.file) && c.score > (anchors[0]?.score ?? Infinity));
  if (!anchors.length || raised) return [];
  const out: Candidate[] = [];
  for (const anchor of anchors) {
    const lead = bestTestedSite(graph, anchor, signals, ws, lineText);
    if (!lead) continue;
    const assertion = lead.evidence >= LIFT_EVIDENCE && failedAnAssertion(anchor, signals, lineText, graph);
    out.push({
      file: lead.site.file,
      line: lead.site.def.line,
      endLine: lead.site.def.endLine,
      cause: 'definition',
      score: assertion ? anchor.score + ASSERTION_LIFT : anchor.score - ERROR_LEAD_GAP,
      message: `the failing test ${anchor.file}:${anchor.line} exercises \`${lead.site.def.name}\`${assertion ? ' and its assertion failed: the value it checks comes from here' : ''}`,
      symbol: lead.site.def.name,
      signals: [],
      notes: [...lead.why, assertion ? ASSERTION_NOTE : 'the test raised an error of its own: a lead, not the pin'],
      mapped: 'search',
    });
  }
  return out;
}

const ASSERTION_NOTE = 'an assertion failed (not an error the test raised)';

interface Lead {
  site: DefSite;
  evidence: number;
  why: string[];
}

/** The definition the test most likely exercised, with the evidence for it, or none when too little points anywhere. */
function bestTestedSite(graph: SymbolGraph, anchor: Candidate, signals: readonly Signal[], ws: Workspace, lineText: (n: number) => string | undefined): Lead | undefined {
  const stem = testedStem(anchor.file);
  const imported = new Set(importsOf(ws, anchor.file));
  const failing = new Set<string>();
  for (const s of anchor.signals) for (const w of wordsOf(`${(s.symbol ?? '').split(/[.:#]/).pop() ?? ''} ${s.message} ${(s.related ?? []).map((n) => lineText(n) ?? '').join(' ')}`)) for (const x of nameWords(w)) failing.add(x);
  const testName = anchor.signals.map((s) => s.symbol).find(Boolean) ?? signals.find((s) => s.kind === 'test' && s.symbol)?.symbol;
  if (testName) for (const w of nameWords(testName.split(/[.:#]/).pop()!)) failing.add(w);
  // The names on the failing line, and on the lines that assigned the values it checks.
  const onLine = namesNearFailingLine(graph, anchor, ws);
  let best: Lead | undefined;
  for (const r of reachFrom(graph, { file: anchor.file, line: anchor.line }, REACH_DEPTH).values()) {
    if (isTestFile(r.site.file)) continue;
    const why: string[] = [];
    let ev = r.depth === 1 ? 0.2 : 0.1;
    why.push(`${r.chain.join(' → ')}`);
    if (r.depth === 1 && onLine.has(r.site.def.name)) {
      ev += 0.2;
      why.push('called on the failing line, or for the value it checks');
    }
    const fileStem = stemOf(r.site.file);
    if (stem.length >= 3 && (fileStem === stem || stemOf(r.site.def.container ?? '') === stem || r.site.def.name.toLowerCase() === stem)) {
      ev += 0.25;
      why.push(`named for the test file (${anchor.file})`);
    }
    if (imported.has(r.site.file)) {
      ev += 0.1;
      why.push('the test file imports it');
    }
    const shared = nameWords(r.site.def.name).filter((w) => failing.has(w)).length;
    if (shared) {
      ev += Math.min(0.3, 0.15 * shared);
      why.push("the failing test's name or message names it");
    }
    if (ev < MIN_EVIDENCE) continue;
    if (!best || ev > best.evidence || (ev === best.evidence && r.depth < 2 && r.site.def.kind !== 'class')) best = { site: r.site, evidence: ev, why };
  }
  // By file, for what the call graph cannot follow: a module bound to a local name (`const ms =
  // require('../lib/ms')`), a language with no grammar here (Elixir, Perl, Clojure), a C header.
  for (const file of new Set([...imported, ...namedFor(ws, stem)])) {
    if (isTestFile(file) || best?.site.file === file) continue;
    const why: string[] = [];
    let ev = 0;
    const named = stem.length >= 3 && sameStem(stemOf(file), stem);
    if (named) (ev += 0.25), why.push(`named for the test file (${anchor.file})`);
    if (imported.has(file)) (ev += 0.1), why.push('the test file imports it');
    const def = calledDefinition(graph, ws, file, onLine);
    if (def || onLine.has(stemOf(file)) || [...onLine].some((n) => n.toLowerCase() === stemOf(file))) (ev += 0.2), why.push('called on the failing line, or for the value it checks');
    const site = { file, def: def ?? firstDefinition(graph, file) };
    if (nameWords(site.def.name).some((w) => failing.has(w))) (ev += 0.15), why.push("the failing test's name or message names it");
    if (ev < MIN_EVIDENCE || (best && ev <= best.evidence)) continue;
    best = { site, evidence: ev, why };
  }
  return best;
}

const sameStem = (a: string, b: string) => a === b || a === `${b}s` || `${a}s` === b;

/** Source files named for a test file's stem (`slug_test.exs` → `lib/slug.ex`); none when the name is too common to tell. */
const MAX_NAMED_FILES = 3;
function namedFor(ws: Workspace, stem: string): string[] {
  if (stem.length < 3) return [];
  const out = ws.files.filter((f) => !isTestFile(f) && sameStem(stemOf(f), stem) && /\.\w+$/.test(f) && !/\.(md|txt|json|ya?ml|lock|html?|css|svg|png)$/i.test(f));
  return out.length <= MAX_NAMED_FILES ? out : [];
}

/** The definition in `file` of a name the failing line calls: by its tags, else by a `def name` / `function name` line. */
function calledDefinition(graph: SymbolGraph, ws: Workspace, file: string, names: ReadonlySet<string>): Definition | undefined {
  const defs = graph.tags.get(file)?.defs ?? [];
  const tagged = defs.find((d) => names.has(d.name));
  if (tagged) return tagged;
  const lines = ws.lines(file) ?? [];
  for (const name of names) {
    if (name.length < 3) continue;
    const re = new RegExp(`\\b(?:def|defp|defn|function|fn|func|sub|proc)\\s+(?:self\\.)?${name.replace(/[$]/g, '\\$')}\\b`);
    const i = lines.findIndex((l) => re.test(l));
    if (i >= 0) return { name, kind: 'function', line: i + 1, endLine: i + 1, signature: lines[i]!.trim() };
  }
  return undefined;
}

function firstDefinition(graph: SymbolGraph, file: string): Definition {
  const d = graph.tags.get(file)?.defs[0];
  return d ?? { name: stemOf(file), kind: 'module', line: 1, endLine: 1, signature: '' };
}

/** Names referenced on the failing line, and the names called on lines above it that assign a variable the line reads. */
function namesNearFailingLine(graph: SymbolGraph, anchor: Candidate, ws: Workspace): Set<string> {
  const tags = graph.tags.get(anchor.file);
  const def = definitionAt(tags, anchor.line);
  const lines = ws.lines(anchor.file) ?? [];
  const text = lines[anchor.line - 1] ?? '';
  const out = new Set<string>();
  const refs = tags?.refs ?? [];
  // Calls only (`name(`, or Lisp's `(ns/name`): an attribute read (`summary.session`) says nothing of what ran.
  const called = (n: string, t: string) => new RegExp(`(?:^|[^\\w$])${n.replace(/[$]/g, '\\$')}\\s*\\(|\\(\\s*(?:[\\w.-]+/)?${n.replace(/[$]/g, '\\$')}[\\s)]`).test(t);
  for (const r of refs) if (r.line === anchor.line && called(r.name, text)) out.add(r.name);
  const read = new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
  // No tags (a language without a grammar here): the line's own called words.
  if (!tags) for (const w of read) if (w.length >= 3 && called(w, text)) out.add(w);
  for (let n = anchor.line - 1; n >= (def?.line ?? anchor.line); n--) {
    const m = /^\s*(?:(?:const|let|var|val|final|auto|[A-Z][\w<>,\s[\]]*)\s+)?\[?\s*([A-Za-z_$][\w$]*)\s*\]?\s*(?::[^=]+)?=(?!=)/.exec(lines[n - 1] ?? '');
    if (!m || !read.has(m[1]!)) continue;
    for (const r of refs) if (r.line === n && called(r.name, lines[n - 1] ?? '')) out.add(r.name);
  }
  return out;
}

/**
 * The failing test failed an assertion (a value checked and found wrong), rather than raising an error
 * of its own or failing in its setup: the message and the lines the runner printed with it say so.
 */
function failedAnAssertion(anchor: Candidate, signals: readonly Signal[], lineText: (n: number) => string | undefined, graph: SymbolGraph): boolean {
  const def = definitionAt(graph.tags.get(anchor.file), anchor.line);
  if (def && SETUP.test(def.name)) return false;
  const own = anchor.signals.filter((s) => s.kind === 'test' || s.kind === 'diagnostic');
  const near = own.length ? own : signals.filter((s) => s.kind === 'test');
  const texts = near.map((s) => `${s.message}\n${(s.related ?? []).map((n) => lineText(n) ?? '').join('\n')}`);
  if (!texts.length) return false;
  return texts.some((t) => ASSERTION.test(t) && !RAISED.test(t.split('\n')[0] ?? ''));
}

/**
 * With a diff: of the changes the failing test reaches, the ones inside the code its failed assertion
 * checks (the lead above, when it is one) come first. Changes elsewhere keep their scores: the diff prior
 * stays what decides, this only orders changes within it.
 */
export function liftTestedHunks(diffCandidates: Candidate[], leads: readonly Candidate[]): void {
  for (const lead of leads) {
    if (!lead.notes.includes(ASSERTION_NOTE) || lead.endLine === undefined || lead.endLine <= lead.line) continue;
    for (const c of diffCandidates) {
      if (c.cause !== 'diff' || c.file !== lead.file || c.line < lead.line || c.line > lead.endLine) continue;
      if (c.notes.includes(LIFTED_NOTE)) continue;
      c.score += TESTED_HUNK_BONUS;
      c.notes.push(LIFTED_NOTE);
    }
  }
}
const LIFTED_NOTE = "inside the code the failing test's assertion checks";
