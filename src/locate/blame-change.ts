import type { Category, Signal } from '../types.js';
import type { Candidate } from './candidate.js';
import { mergeCandidates, wordsOf } from './candidate.js';
import { renamesIn, shapeOfHunk } from './change-shape.js';
import { definitionAt, reachFrom, type Reached, type SymbolGraph } from '../repo/map/symbol-graph.js';
import { changedBy, type PrDiff, type Hunk } from '../repo/diff.js';
import { importsOf, isTestFile } from '../repo/related-files.js';
import { mapLogPath, type Workspace } from '../repo/workspace.js';
import { RAISED_UNDER_TEST } from './from-signals.js';
import { isGeneratedFile } from './generated-file.js';
import { CHANGED_LOG_LINE_BOOST } from './rank.js';

/** Files that describe the build rather than hold code: a change there is a prior for dependency failures only. */
const MANIFEST = /(^|\/)(package\.json|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|requirements[\w.-]*\.txt|pyproject\.toml|setup\.(py|cfg)|Pipfile|go\.(mod|sum)|Cargo\.(toml|lock)|pom\.xml|build\.gradle(\.kts)?|Gemfile(\.lock)?|[\w.-]+\.csproj)$/;
/** Failing-test locations followed through the call graph (each is one breadth-first walk). */
const MAX_TEST_STARTS = 6;
/** How far below the frame that raised the error a change outside the failure's stack is ranked. */
const UNFRAMED_BELOW_RAISED = 0.05;
const NOT_CODE = /\.(md|txt|rst|json|ya?ml|lock|toml|cfg|ini|svg|png|snap)$/;
/**
 * How far below the failing test's own line a change the test does not reach is ranked, when that line is
 * the best the log gives. The log proves the test line; an unreached change is only near it (imported,
 * same file). On the real pins this kept the test line in 6 cases of 4 projects whose fix changed the
 * test (an engine's expected output updated, a test helper fixed) and lost one (pgjdbc: a parser change
 * the graph did not follow through a JDBC call); found on the held-back half, so that half is no longer
 * blind to it. Only under the test's own report: on a bare frame in a test file it cost openpnp the
 * fixed file twice.
 */
const UNREACHED_BELOW_TEST_LINE = 0.01;
const UNREACHED = 'the failing test does not reach this code through calls';

export interface BlameInput {
  category: Category;
  signals: readonly Signal[];
  candidates: readonly Candidate[];
  ws: Workspace;
  diff: PrDiff;
  /** Cleaned text of a log line, for the words of a failure's expected/actual lines. */
  lineText: (n: number) => string | undefined;
  /** The tree-sitter symbol graph, when the checkout was tagged: which changed code the test reaches. */
  graph?: SymbolGraph;
}

/**
 * "Blame the change, not the symptom": candidates from the PR's own changed lines. For a failing test,
 * the changed hunks of the code the test exercises (its frames, its imports and theirs), scored by how
 * close they are to the test and how many of the failure's words they share. For a dependency failure,
 * the manifest line the PR changed for that package. For a compile error at a call site, the changed
 * definition it calls.
 */
export function candidatesFromDiff(input: BlameInput): Candidate[] {
  const { category } = input;
  if (category === 'test') return blameForTest(input);
  if (category === 'dependency') return blameForDependency(input);
  if (category === 'compile') return definitionsForCompile(input);
  return [];
}

function blameForTest({ signals, candidates, ws, diff, lineText, graph }: BlameInput): Candidate[] {
  const testFiles = new Set<string>();
  const frameLines = new Map<string, { line: number; depth: number }[]>();
  for (const c of candidates) {
    if (c.cause === 'test' || isTestFile(c.file)) testFiles.add(c.file);
    if (c.cause === 'frame' && !isTestFile(c.file)) frameLines.set(c.file, [...(frameLines.get(c.file) ?? []), { line: c.line, depth: c.depth ?? 0 }]);
  }
  for (const s of signals) {
    if (s.kind === 'test' && s.path) {
      const m = mapLogPath(ws, s.path);
      if (m) testFiles.add(m.file);
    }
  }
  // The best frame raised in the repository's own code under a failing test (from-signals marks it): a
  // change the failure's stack never touches is linked to it only by imports or calls, which is weaker.
  const raised = Math.max(-Infinity, ...candidates.filter((c) => c.cause === 'frame' && c.depth === 0 && c.notes.includes(RAISED_UNDER_TEST)).map((c) => c.score));
  // A generated file (Cython's `.c` beside its `.pyx`) is the echo of its source's change, never the fix.
  const sourceChanges = diff.files.filter((f) => !isTestFile(f.file) && !MANIFEST.test(f.file) && !NOT_CODE.test(f.file) && ws.fileSet.has(f.file) && !isGeneratedFile(ws, f.file));
  // Distance from the failing tests through imports (1 = imported by a test, 2 = imported by that), plus
  // references by name to a changed file (Ruby constants, same-package Java classes need no import).
  const distance = new Map<string, number>();
  const namer = changedFileNamer(sourceChanges.map((c) => c.file));
  let frontier = [...testFiles];
  for (let d = 1; d <= 3 && frontier.length; d++) {
    const next: string[] = [];
    for (const f of frontier) {
      for (const g of [...importsOf(ws, f), ...namedChangedFiles(ws, f, namer)]) {
        if (distance.has(g) || testFiles.has(g)) continue;
        distance.set(g, d);
        next.push(g);
      }
    }
    frontier = next;
  }
  const failureWords = new Set<string>();
  for (const s of signals) {
    if (s.kind !== 'test' && !(s.kind === 'diagnostic' && s.category === 'test')) continue;
    const related = (s.related ?? []).map((n) => lineText(n) ?? '').join(' ');
    for (const w of wordsOf(`${s.symbol ?? ''} ${s.message} ${related}`)) failureWords.add(w);
  }
  const valueText = signals
    .filter((s) => s.kind === 'test')
    .flatMap((s) => [s.message, ...(s.related ?? []).map((n) => lineText(n) ?? '')])
    .join('\n');
  const reach = graph ? reachFromTests(graph, candidates, testFiles) : new Map<string, Reached>();
  const testName = signals.find((s) => s.kind === 'test' && s.symbol)?.symbol;
  const out: Candidate[] = [];
  // Hunks changed elsewhere in the function the raising frame is in, by that frame's line (see belowRaisingLine).
  const besideRaise = new Map<Candidate, number>();
  // The shallowest frame depth on each made candidate's changed line or function (see outerCallsBelowRaise).
  const framedDepth = new Map<Candidate, number>();
  for (const cf of sourceChanges) {
    const renames = renamesIn(cf.hunks);
    const inDoc = docstringLines(ws, cf.file);
    for (const h of cf.hunks) {
      // A docstring's text changes no behaviour, however much it reads like code.
      const shapes = shapeOfHunk(h, renames).filter((sh) => !inDoc?.has(sh.n));
      if (!shapes.length) continue;
      const notes: string[] = [];
      let rel = 0;
      const frames = frameLines.get(cf.file) ?? [];
      const onLine = frames.filter((f) => f.line >= h.start && f.line <= h.end);
      // A frame whose function this hunk changed, on another line of it (graph tags give the function).
      const inFunction = onLine.length || !graph ? [] : frames.filter((f) => sameFunction(graph, cf.file, f.line, h));
      if (onLine.length) {
        // The innermost frame on a changed line is where it broke; outer ones only passed through.
        rel = 1.2 - 0.15 * Math.min(...onLine.map((f) => f.depth));
        notes.push('a stack frame of the failure is on this changed line');
      } else if (inFunction.length) {
        rel = 1.2 - 0.15 * Math.min(...inFunction.map((f) => f.depth));
        notes.push('changed inside the function a stack frame of the failure is in');
      } else if (frames.length) {
        rel = 0.5;
        notes.push('the failure passes through this file');
      } else if (distance.has(cf.file)) {
        const d = distance.get(cf.file)!;
        rel = d === 1 ? 0.6 : d === 2 ? 0.5 : 0.4;
        notes.push(d === 1 ? 'the failing test imports this file' : `the failing test reaches this file through ${d} imports`);
      } else if (sourceChanges.length === 1 && !frameLines.size) {
        // The lone change is a suspect only while nothing else is: once the failure was raised in code of
        // the repository's own (a frame outside the tests) that the change does not touch, it is not.
        rel = 0.4;
        notes.push(`the only source change ${diff.changedBy ? `in ${diff.changedBy}` : 'in the PR'}`);
      }
      // The line: a frame's line when one is in the hunk, else the edit most likely to change behaviour.
      let best = shapes[0]!;
      let bestScore = -Infinity;
      for (const sh of shapes) {
        // A rename echoes the failure's words everywhere it touches; that is no evidence of a cause.
        const overlap = sh.neutral ? 0 : [...wordsOf(sh.text)].filter((w) => failureWords.has(w)).length;
        const here = onLine.filter((f) => f.line === sh.n).map((f) => f.depth);
        const framed = here.length ? 1 - 0.15 * Math.min(...here) : inFunction.length ? IN_FUNCTION_FRAMED - 0.15 * Math.min(...inFunction.map((f) => f.depth)) : 0;
        // The old value in the failure's expected side and the new one in its actual side (or back).
        const delta = sh.valuesGone.some((v) => v !== '' && valueText.includes(v)) && sh.valuesCame.some((v) => v !== '' && valueText.includes(v));
        const sc = framed + sh.prior + Math.min(0.3, overlap * 0.1) + (delta ? 0.4 : 0);
        if (delta && !sh.reason.includes('values')) sh.reason += '; the old and new values both appear in the failure';
        if (sc > bestScore) {
          bestScore = sc;
          best = sh;
        }
      }
      // The call graph: does the failing test reach the definition this line sits in, and through what?
      if (graph && reach.size) {
        const def = definitionAt(graph.tags.get(cf.file), best.n);
        const r = def ? reach.get(`${cf.file}:${def.line}:${def.name}`) : undefined;
        if (r) {
          rel = Math.max(rel, 0.95 - 0.05 * (r.depth - 1));
          notes.unshift(`${testName ? `test \`${testName.slice(0, 80)}\` → ` : ''}${r.chain.map((n) => `\`${n}\``).join(' → ')} → changed line ${best.n}`);
        } else if (graph.tags.get(cf.file)?.parsed && !onLine.length && !inFunction.length && !unresolvedImport(reach, cf.file, distance, graph, testFiles)) {
          rel *= 0.6;
          notes.push(UNREACHED);
        }
      }
      if (rel === 0) continue;
      notes.push(best.reason);
      const raiseLine = inFunction.find((f) => f.depth === 0)?.line;
      const made: Candidate = {
        file: cf.file,
        line: best.n,
        cause: 'diff',
        score: frames.length || raised === -Infinity ? 1.0 + rel * 0.5 + bestScore : Math.min(1.0 + rel * 0.5 + bestScore, raised - UNFRAMED_BELOW_RAISED),
        message: `${best.removedOnly ? 'code removed here' : 'changed'} by ${diff.changedBy ?? 'this PR'}: ${best.text.trim().slice(0, 200)}`,
        signals: [],
        notes,
        mapped: 'diff',
      };
      out.push(made);
      if (raiseLine !== undefined && raiseLine !== best.n) besideRaise.set(made, raiseLine);
      const framedAt = [...onLine, ...inFunction].map((f) => f.depth);
      if (framedAt.length) framedDepth.set(made, Math.min(...framedAt));
    }
  }
  return outerCallsBelowRaise(belowRaisingLine(out, besideRaise, candidates), framedDepth, raised, candidates);
}

/** How far below the raising frame's own line another changed line of its function is ranked. */
const BESIDE_RAISE_BELOW = 0.01;

/**
 * The diff says which function broke, the raising frame says which line: a hunk changed elsewhere in the
 * function the innermost frame raised in ranks just below that frame's own line (the changed line there,
 * or the frame itself when its line is unchanged).
 */
function belowRaisingLine(out: Candidate[], besideRaise: Map<Candidate, number>, candidates: readonly Candidate[]): Candidate[] {
  for (const [c, line] of besideRaise) {
    const anchors = [...out, ...candidates].filter((a) => a !== c && a.file === c.file && a.line === line);
    if (!anchors.length) continue;
    const anchor = Math.max(...anchors.map((a) => a.score));
    if (c.score < anchor) continue;
    c.score = anchor - BESIDE_RAISE_BELOW;
    c.notes.push(`below line ${line}, where the innermost frame raised in this function`);
  }
  return out;
}

/** How far below the raising frame's line a changed line of an outer frame is ranked (below its function's hunks). */
const OUTER_CALL_BELOW_RAISE = 0.02;

/**
 * When the breaking commit changed the function the innermost frame raised in (its line, or another line
 * of that function), a changed line on an outer frame of the same stack is the call that led there, not
 * where it broke: both ends of a changed call were edited together, and the exception came from the callee.
 * Such a line ranks just below the raising frame's line and its function's other hunks. Without a change
 * at the raising end, an outer frame's changed line keeps its place (it may well be the fault).
 */
function outerCallsBelowRaise(out: Candidate[], framedDepth: Map<Candidate, number>, raised: number, candidates: readonly Candidate[]): Candidate[] {
  if (raised === -Infinity || ![...framedDepth.values()].some((d) => d === 0)) return out;
  for (const [c, depth] of framedDepth) {
    if (depth === 0 || c.score < raised) continue;
    // The outer frame's own candidate on this line adds its corroboration when the two merge (mergeCandidates),
    // and the final order lifts a log location on a changed line (rankCandidates): both are taken off first.
    const same = candidates.filter((a) => a.file === c.file && a.line === c.line).map((a) => a.score);
    const bonus = same.length ? Math.min(0.15, Math.max(...same) * 0.2) + CHANGED_LOG_LINE_BOOST : 0;
    c.score = raised - OUTER_CALL_BELOW_RAISE - bonus;
    c.notes.push('an outer frame\'s call into the changed function that raised: below the raising frame');
  }
  return out;
}

/**
 * Changes the failing test does not reach through calls stay just below the test's own line, when that
 * line (the failing test's report on the innermost frame in the repository, in a test file) is what the
 * log alone would pin. A change
 * on the failure's stack, or one the test's calls reach, keeps its score; so does any change when the log
 * points past the test (a frame raised in the code). Applied last, after any lift of the hunks a failed
 * assertion checks.
 */
export function belowTestLine(blamed: Candidate[], candidates: readonly Candidate[]): Candidate[] {
  const merged = mergeCandidates([...candidates]);
  const best = merged[0];
  // The failing test's own report on its innermost frame: a bare frame in a test file (a helper thread, a
  // stack printed with no test named) proves less than that, and the change keeps its place (openpnp).
  // A file the runner reports a failing test in is a test file by the log's own word, whatever its name
  // (glances' `unitest.py`).
  if (!best || best.cause !== 'test' || !best.notes.includes('innermost frame in the repository')) return blamed;
  for (const c of blamed) if (c.notes.includes(UNREACHED) && c.score >= best.score) c.score = best.score - UNREACHED_BELOW_TEST_LINE;
  return blamed;
}

/**
 * A changed line in the function a frame of the failure is in, off the frame's own line, counts almost as
 * the frame's line: the function was changed and then raised (a new branch above the line that throws).
 * Just below a frame on a changed line at the same depth, above one a frame further out: when the caller's
 * changed call and the callee's changed body are both frames, the callee's change is where it broke.
 */
const IN_FUNCTION_FRAMED = 0.95;
/** Definitions whose span means "this function": not a class or module holding the whole file. */
const FUNCTION_KINDS = new Set(['function', 'method']);

/** The frame's line and the hunk are in the same function (the innermost definition around the frame). */
function sameFunction(graph: SymbolGraph, file: string, frameLine: number, h: Hunk): boolean {
  const def = definitionAt(graph.tags.get(file), frameLine);
  if (!def || !FUNCTION_KINDS.has(def.kind)) return false;
  return h.start <= def.endLine && h.end >= def.line;
}

/** The lines of a Python file inside a triple-quoted string (docstrings), or none for other files. */
function docstringLines(ws: Workspace, file: string): Set<number> | undefined {
  return /\.pyx?$/.test(file) ? tripleQuotedLines(ws.lines(file) ?? []) : undefined;
}

/**
 * The 1-based lines of docstrings: triple-quoted strings that stand as a statement of their own (the
 * line starts with the quotes). A triple-quoted string assigned or passed (`sql = """SELECT …`) is data
 * the code uses, and its lines stay. Exported for tests.
 */
export function tripleQuotedLines(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  let open: string | undefined;
  let doc = false;
  for (const [i, l] of lines.entries()) {
    let inside = open !== undefined && doc;
    for (const m of l.matchAll(/"""|'''/g)) {
      if (open === undefined) {
        open = m[0];
        doc = /^\s*[rRuU]?$/.test(l.slice(0, m.index));
        inside ||= doc;
      } else if (open === m[0]) open = undefined;
    }
    if (inside) out.add(i + 1);
  }
  return out;
}

function isCode(text: string): boolean {
  const t = text.trim();
  return t !== '' && !/^(\/\/|#|\*|\/\*|--|"""|''')/.test(t) && !/^[{}()[\];,]+$/.test(t);
}

/**
 * A changed line that only uses a module of the project's own that failed to import (`script =
 * abjad.cli.DoctestScript()` in a new test, for `No module named 'abjad.cli.DoctestScript'`): the use did
 * not make the module missing, so it ranks below the import line the log reports (a diagnostic, 1.0), not
 * above it as a changed line naming a third-party package does (nothing installs the project's own code).
 */
const OWN_MODULE_USE = 0.9;
/** A line that imports or requires something, in the usual languages' words. */
const IMPORT_LINE = /^\s*(?:from\s+\S+\s+import\b|import\b|require\b|use\b|#\s*include\b|extern\s+crate\b)|\brequire\s*\(|\bimport\s*\(/;

function blameForDependency({ signals, ws, diff }: BlameInput): Candidate[] {
  const names = new Set(signals.filter((s) => s.category === 'dependency' && s.symbol).map((s) => s.symbol!));
  const own = new Set([...names].filter((n) => isOwnModule(ws, n)));
  const out: Candidate[] = [];
  for (const cf of diff.files) {
    if (!ws.fileSet.has(cf.file)) continue;
    for (const h of cf.hunks) {
      for (const a of h.added) {
        const hit = [...names].find((n) => a.text.includes(n));
        const manifest = MANIFEST.test(cf.file);
        if (!hit && !manifest) continue;
        const onlyUses = hit !== undefined && own.has(hit) && !manifest && !IMPORT_LINE.test(a.text);
        out.push({
          file: cf.file,
          line: a.n,
          cause: 'diff',
          score: hit ? (onlyUses ? OWN_MODULE_USE : 1.3) : 0.5,
          message: hit ? (diff.changedBy ? `${diff.changedBy} add or change \`${hit}\` here` : `the PR adds or changes \`${hit}\` here`) : `${changedBy(diff)} changed the dependency manifest here`,
          symbol: hit,
          signals: [],
          notes: [hit ? `changed line names the package ${hit}` : 'changed manifest line', ...(onlyUses ? ["uses the project's own module; does not import it"] : [])],
          mapped: 'diff',
        });
      }
    }
  }
  return out;
}

/**
 * A module name (`abjad.cli.DoctestScript`, `pkg/sub/mod`) whose package is a folder of the checkout
 * (at its root, or under src/ or lib/): the project's own code, not something an install step provides.
 */
export function isOwnModule(ws: Workspace, name: string): boolean {
  const parts = name.replace(/^\.+/, '').split(/[./]/).filter(Boolean);
  if (!parts.length || name.startsWith('.')) return name.startsWith('.');
  const dir = (parts.length > 1 ? parts.slice(0, -1) : parts).join('/');
  const roots = [`${dir}/`, `src/${dir}/`, `lib/${dir}/`];
  return ws.files.some((f) => roots.some((r) => f.startsWith(r)) || (parts.length === 1 && f === `${dir}.py`));
}

const DEFINES = (name: string) =>
  new RegExp(`(?:function|def|fn|func|class|interface|type|struct|enum|trait|const|let|var|void|int|public|private|protected|static|export)\\s+[\\w<>\\[\\]*&\\s]*\\b${name}\\b|\\b${name}\\s*(?:=\\s*(?:async\\s*)?\\(|\\()[^;]*\\)\\s*(?:\\{|=>|:|->)`);

/** A compile error at a call site whose definition the PR changed: that definition, as a related finding. */
function definitionsForCompile({ candidates, ws, diff }: BlameInput): Candidate[] {
  const top = candidates.find((c) => c.cause === 'diagnostic');
  if (!top) return [];
  const line = ws.lines(top.file)?.[top.line - 1] ?? '';
  const names = new Set<string>();
  for (const m of `${top.message} ${line}`.matchAll(/[A-Za-z_][\w]{2,}/g)) names.add(m[0]);
  const out: Candidate[] = [];
  for (const cf of diff.files) {
    if (cf.file === top.file || !ws.fileSet.has(cf.file)) continue;
    for (const h of cf.hunks) {
      for (const a of h.added) {
        const name = [...names].find((n) => DEFINES(n).test(a.text));
        if (!name) continue;
        out.push({
          file: cf.file,
          line: a.n,
          cause: 'definition',
          score: top.score - 0.3,
          message: `${changedBy(diff)} changed the definition of \`${name}\` that ${top.file}:${top.line} uses`,
          symbol: name,
          signals: [],
          notes: [`changed definition of ${name}`],
          mapped: 'diff',
        });
        break;
      }
    }
  }
  return out;
}

/**
 * The names by which a file can refer to each changed file: its stem as a word (`tax_rules`) or in
 * PascalCase (`TaxRules`). Built once per diagnosis: all word-only names go into one alternation, so each
 * file in the import walk is scanned once, not once per changed file (a 378-file diff walked over a
 * package's imports was minutes of regex compiling and rescanning).
 */
interface ChangedNamer {
  /** One regex over every word-only name, with the changed files each name stands for. */
  words?: { re: RegExp; files: Map<string, string[]> };
  /** Names with other characters (`foo-bar`), matched one by one as before. */
  others: { file: string; re: RegExp }[];
}

function changedFileNamer(changed: readonly string[]): ChangedNamer {
  const files = new Map<string, string[]>();
  const others: { file: string; re: RegExp }[] = [];
  for (const c of changed) {
    const stem = c.slice(c.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
    if (stem.length < 3 || stem === 'index' || stem === '__init__' || stem === 'mod' || stem === 'lib') continue;
    const pascal = stem.replace(/(^|[_-])(\w)/g, (_m, _s, ch: string) => ch.toUpperCase());
    if (!/^\w+$/.test(stem) || !/^\w+$/.test(pascal)) {
      others.push({ file: c, re: new RegExp(`\\b(?:${escape(stem)}|${escape(pascal)})\\b`) });
      continue;
    }
    for (const n of new Set([stem, pascal])) files.set(n, [...(files.get(n) ?? []), c]);
  }
  // Longest first, so a name is never cut short by a shorter one it starts with (a word matches whole).
  const names = [...files.keys()].sort((a, b) => b.length - a.length);
  return { ...(names.length ? { words: { re: new RegExp(`\\b(?:${names.map(escape).join('|')})\\b`, 'g'), files } } : {}), others };
}

/** Changed files that `file` names: their stem as a word (`Tax`, `tax`, `TaxRules`) in its text. */
function namedChangedFiles(ws: Workspace, file: string, namer: ChangedNamer): string[] {
  const lines = ws.lines(file);
  if (!lines || (!namer.words && !namer.others.length)) return [];
  const text = lines.join('\n');
  const out = new Set<string>();
  if (namer.words) for (const m of text.matchAll(namer.words.re)) for (const c of namer.words.files.get(m[0]) ?? []) out.add(c);
  for (const o of namer.others) if (o.re.test(text)) out.add(o.file);
  out.delete(file);
  return [...out];
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A file the failing test imports directly in which the graph reaches no definition at all, whose definitions the
 * test files never name, and which they use by its module's own name: the test calls it under another name (a UMD module's `module.exports = factory()`, imported as
 * `slugify` while its function is a closure's `replace`), so the graph could not have linked the calls, and that a
 * change there is not reached is unproven, not shown. When the tests do name its definitions and the graph still
 * reached none, the calls are elsewhere (or the name is one of many, as every searx engine's `request`): the change
 * stays unreached, so a PR that changed behaviour on purpose does not outrank the test that asserted the old one.
 */
function unresolvedImport(reach: ReadonlyMap<string, Reached>, file: string, distance: ReadonlyMap<string, number>, graph: SymbolGraph, testFiles: ReadonlySet<string>): boolean {
  if (distance.get(file) !== 1) return false;
  for (const k of reach.keys()) if (k.startsWith(`${file}:`)) return false;
  const defined = new Set((graph.tags.get(file)?.defs ?? []).map((d) => d.name));
  const moduleName = file.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
  // A package's index file is never called by its own name: the tests bind the folder to one of theirs
  // (minimist's `var parse = require('../')`), so a test importing it uses it whole.
  let namesModule = moduleName === 'index';
  for (const t of testFiles) {
    for (const r of graph.tags.get(t)?.refs ?? []) {
      if (defined.has(r.name)) return false;
      if (r.name === moduleName) namesModule = true;
    }
  }
  // Only a module the tests use whole (bound to its own name) is one whose calls went unseen; a file that is
  // merely near (a Java class of the same package) is not called by a test that never names it.
  return namesModule;
}

/** Definitions the failing tests reach, from each test location (assertion line, test-file frames). */
function reachFromTests(graph: SymbolGraph, candidates: readonly Candidate[], testFiles: ReadonlySet<string>): Map<string, Reached> {
  const starts = candidates.filter((c) => testFiles.has(c.file)).slice(0, MAX_TEST_STARTS);
  const reach = new Map<string, Reached>();
  for (const st of starts) {
    for (const [k, r] of reachFrom(graph, { file: st.file, line: st.line }, 3)) {
      const prev = reach.get(k);
      if (!prev || r.depth < prev.depth) reach.set(k, r);
    }
  }
  return reach;
}
