// npm run bench:wild: the built CLI on every log of the development corpus fixtures/wild/ (real logs of
// public projects and real toolchains; labels in each folder's label.json, format in fixtures/README.md).
// Runs `redline diagnose --log <f> --format json --no-llm` with no repository, as a user pasting a log
// would, and prints how its failing step, evidence and pin compare with what a person quotes, next to
// the floor "quote the last 20 lines". Writes bench-out/wild.json. Prints figures; asserts nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { fromMirror, mirrorLogPath } from './wild-mirror-log.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
// REDLINE_WILD_DIR: score a batch of logs kept outside the corpus (a new batch at first sight) the same way.
const WILD = process.env.REDLINE_WILD_DIR || join(ROOT, 'fixtures', 'wild');
const CLI = join(ROOT, 'dist', 'bin', 'redline.js');
const OUT = join(ROOT, 'bench-out');
// The floor: what a person gets by pasting the last lines of the log, and (a kinder floor for CI formats
// whose logs end with cleanup) the last lines of the labelled failing step.
const FLOOR_LINES = 20;
// A step counts as found when the CLI's line range and the labelled one overlap by at least this share of
// their union: step headers differ by a line or two between CI formats (the group line, the command echo).
const STEP_IOU = 0.5;
// One diagnosis should take seconds; this only stops a hung run from stalling the whole bench.
const RUN_TIMEOUT_MS = 120_000;

/**
 * Every corpus entry: { id, dir, label, logPath }. Exported for test/wild.test.ts. An entry whose log is
 * read from a mirror (./wild-mirror-log.mjs) has `logPath: null` when that mirror is not on this machine.
 */
export function listWild(dir = WILD) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'label.json')))
    .map((d) => {
      const label = JSON.parse(readFileSync(join(dir, d.name, 'label.json'), 'utf8'));
      return { id: d.name, dir: join(dir, d.name), logPath: fromMirror(label) ? mirrorLogPath(d.name, label) : join(dir, d.name, 'log.txt'), label };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

// What makes a line blank once the CI's framing is gone: a runner timestamp, colour codes, a carriage return.
const FRAMING = /\x1b\[[0-9;?]*[A-Za-z]|^\uFEFF?\d{4}-\d\d-\d\dT[\d:.]+Z ?|\r/g;
// Maven's blank line is its log level alone (`[ERROR] `, `[INFO]`; sbt's `[info]`): as blank as an empty one
// (the evidence stage's isEmptyLine, src/evidence/grow-block.ts).
const LEVEL_ONLY = /^\s*\[(?:INFO|ERROR|WARN(?:ING)?|DEBUG|info|error|warn|debug)\]\s*$/;
/**
 * The set of quoted line numbers of a label. A quoted range is what a person selects and pastes; its blank
 * lines (empty once timestamps and colours are gone, or a log level alone) carry nothing, so they are left out of the set.
 */
export function quotedLines(label, text) {
  const lines = text === undefined ? null : text.split('\n');
  const s = new Set();
  for (const [a, b] of label.quote) for (let n = a; n <= b; n++) if (!lines || (lines[n - 1] ?? '').replace(FRAMING, '').replace(LEVEL_ONLY, '').trim() !== '') s.add(n);
  return s;
}

/** Number of lines of a log as the CLI numbers them (1-based, split on \n). */
export function lineCount(text) {
  if (text.length === 0) return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

function runCli(logPath, repo) {
  const argv = [CLI, 'diagnose', '--log', logPath, '--format', 'json', '--no-llm'];
  if (repo) argv.push('--repo', repo);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, timeout: RUN_TIMEOUT_MS, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
  const ms = performance.now() - t0;
  if (r.status !== 0) return { error: `exit ${r.status ?? r.signal}: ${String(r.stderr).trim().slice(0, 200)}`, ms };
  try {
    return { diagnosis: JSON.parse(String(r.stdout)), ms };
  } catch (e) {
    return { error: `bad JSON: ${e.message}`, ms };
  }
}

/** Precision / recall / F1 of a set of evidence lines against the quoted set. Order kept for `first`. */
export function scoreLines(lines, quoted) {
  const uniq = [...new Set(lines)];
  const hit = uniq.filter((n) => quoted.has(n)).length;
  const p = uniq.length ? hit / uniq.length : 0;
  const r = quoted.size ? hit / quoted.size : 0;
  const f1 = p + r ? (2 * p * r) / (p + r) : 0;
  return { p, r, f1, first: lines.length > 0 && quoted.has(lines[0]), whole: quoted.size > 0 && hit === quoted.size };
}

const norm = (p) => String(p).replace(/\\/g, '/').replace(/^\.\//, '');
/** A pin is right when its file is the fix's file (the log may name it absolutely or relatively) and the line is a fix line. */
function pinOk(finding, fix) {
  if (!finding) return false;
  const f = norm(finding.file);
  return fix.some((x) => (f === norm(x.file) || f.endsWith('/' + norm(x.file)) || norm(x.file).endsWith('/' + f)) && finding.line === x.line);
}

/**
 * Which half of the corpus a log's project falls in (a hash of its repository, so every log of one project
 * is on the same side): tune on one half, check the other moves the same way.
 */
export function halfOf(repo) {
  return createHash('md5').update(String(repo)).digest()[0] % 2 ? 'B' : 'A';
}

function stepOk(got, want) {
  if (!want) return null;
  if (!got) return false;
  const inter = Math.max(0, Math.min(got.endLine, want.end) - Math.max(got.startLine, want.start) + 1);
  const union = Math.max(got.endLine, want.end) - Math.min(got.startLine, want.start) + 1;
  return inter / union >= STEP_IOU;
}

function evaluate(entry) {
  const text = readFileSync(entry.logPath, 'utf8');
  const total = lineCount(text);
  const quoted = quotedLines(entry.label, text);
  const repo = entry.label.repo ? join(entry.dir, entry.label.repo) : undefined;
  const run = runCli(entry.logPath, repo);
  const floorLines = Array.from({ length: Math.min(FLOOR_LINES, total) }, (_, i) => total - Math.min(FLOOR_LINES, total) + 1 + i);
  const floor = scoreLines(floorLines, quoted);
  const stepEnd = entry.label.failingStep?.end ?? total;
  const stepStart = entry.label.failingStep?.start ?? 1;
  const floorStep = scoreLines(Array.from({ length: Math.min(FLOOR_LINES, stepEnd - stepStart + 1) }, (_, i) => stepEnd - i).reverse(), quoted);
  const row = { id: entry.id, ci: entry.label.ci, toolchain: entry.label.toolchain, category: entry.label.category, half: halfOf(entry.label.source?.repo), ms: Math.round(run.ms), floor, floorStep };
  if (run.error) return { ...row, error: run.error };
  const d = run.diagnosis;
  const ev = (d.evidence ?? []).map((e) => e.line).filter((n) => Number.isInteger(n));
  return {
    ...row,
    got: { category: d.category, status: d.status, step: d.failingStep ? { name: d.failingStep.name, startLine: d.failingStep.startLine, endLine: d.failingStep.endLine } : null, evidence: ev, top: d.findings?.[0] ? `${d.findings[0].file}:${d.findings[0].line}` : null },
    step: stepOk(d.failingStep, entry.label.failingStep),
    lines: scoreLines(ev, quoted),
    unknown: d.category === 'unknown',
    categoryOk: d.category === entry.label.category,
    pin: entry.label.fix?.length ? pinOk(d.findings?.[0], entry.label.fix) : null,
  };
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const floorOf = (xs) => ({ precision: mean(xs.map((x) => x.p)), recall: mean(xs.map((x) => x.r)), f1: mean(xs.map((x) => x.f1)), firstIsQuoted: mean(xs.map((x) => (x.first ? 1 : 0))), wholeBlock: mean(xs.map((x) => (x.whole ? 1 : 0))) });
/** The figures of a group of rows (a crashed run scores zero everywhere). */
export function summarise(rows) {
  const ok = rows.filter((r) => !r.error);
  const L = (r) => r.lines ?? { p: 0, r: 0, f1: 0, first: false, whole: false };
  const steps = rows.filter((r) => r.step !== null && r.step !== undefined || r.error);
  const pins = rows.filter((r) => r.pin !== null && r.pin !== undefined);
  return {
    logs: rows.length,
    errors: rows.length - ok.length,
    stepAccuracy: mean(steps.map((r) => (r.step ? 1 : 0))),
    stepLabelled: steps.length,
    precision: mean(rows.map((r) => L(r).p)),
    recall: mean(rows.map((r) => L(r).r)),
    f1: mean(rows.map((r) => L(r).f1)),
    firstIsQuoted: mean(rows.map((r) => (L(r).first ? 1 : 0))),
    wholeBlock: mean(rows.map((r) => (L(r).whole ? 1 : 0))),
    unknownRate: mean(rows.map((r) => (r.error || r.unknown ? 1 : 0))),
    categoryAccuracy: mean(rows.map((r) => (r.categoryOk ? 1 : 0))),
    pinAccuracy: mean(pins.map((r) => (r.pin ? 1 : 0))),
    pinLabelled: pins.length,
    floor: floorOf(rows.map((r) => r.floor)),
    floorStep: floorOf(rows.map((r) => r.floorStep)),
  };
}

const f = (x) => (x === null || x === undefined ? '    -' : x.toFixed(2).padStart(5));
const pc = (x) => (x === null || x === undefined ? '   -' : `${Math.round(100 * x)}%`.padStart(4));
function printTable(title, groups) {
  console.log(`\n${title}`);
  console.log(`${''.padEnd(16)} logs  step   P     R     F1   first whole unkn  pin  | last ${FLOOR_LINES} of log: F1  | last ${FLOOR_LINES} of step: P     R     F1   first whole`);
  for (const [name, s] of groups)
    console.log(
      `${name.slice(0, 16).padEnd(16)} ${String(s.logs).padStart(4)} ${pc(s.stepAccuracy)} ${f(s.precision)} ${f(s.recall)} ${f(s.f1)} ${pc(s.firstIsQuoted)}  ${pc(s.wholeBlock)}  ${pc(s.unknownRate)} ${pc(s.pinAccuracy)} |            ${f(s.floor.f1)} |              ${f(s.floorStep.precision)} ${f(s.floorStep.recall)} ${f(s.floorStep.f1)} ${pc(s.floorStep.firstIsQuoted)}  ${pc(s.floorStep.wholeBlock)}`,
    );
}
function groupBy(rows, key) {
  const m = new Map();
  for (const r of rows) m.set(r[key], [...(m.get(r[key]) ?? []), r]);
  return [...m.entries()].sort((a, b) => b[1].length - a[1].length || String(a[0]).localeCompare(String(b[0]))).map(([k, rs]) => [String(k), summarise(rs)]);
}

/**
 * `only`: toolchains or log ids to run (`node scripts/bench-wild.mjs pytest jest`), for a quick look at the
 * part of the corpus a change touches; the written bench-out/wild.json then holds only those rows.
 */
export async function benchWild({ quiet = false, only = [] } = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const listed = listWild().filter((e) => !only.length || only.includes(e.label.toolchain) || only.includes(e.id));
  const entries = listed.filter((e) => e.logPath);
  const unread = listed.length - entries.length;
  const rows = [];
  for (const e of entries) rows.push(evaluate(e));
  const overall = summarise(rows);
  const result = { overall, byCi: Object.fromEntries(groupBy(rows, 'ci')), byToolchain: Object.fromEntries(groupBy(rows, 'toolchain')), byCategory: Object.fromEntries(groupBy(rows, 'category')), rows };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, process.env.REDLINE_WILD_DIR ? 'wild-extra.json' : 'wild.json'), JSON.stringify(result, null, 2));
  if (!quiet) {
    const projects = new Set(entries.map((e) => e.label.source?.repo)).size;
    console.log(`\nWild corpus (fixtures/wild/): ${rows.length} real logs of ${projects} projects, ${new Set(rows.map((r) => r.toolchain)).size} toolchains, ${new Set(rows.map((r) => r.ci)).size} CI systems; no repository given`);
    if (unread) console.log(`(${unread} logs read from fetched mirrors skipped: their mirrors are not on this machine; fixtures/README.md, "wild/")`);
    console.log('step = failing-step accuracy; P/R/F1 = evidence lines vs the quoted lines (mean per log); first = first evidence line is quoted;');
    console.log('whole = every quoted line is in the evidence; unkn = category unknown; pin = top-1 file:line is a fix line (where a fix is labelled)');
    printTable('overall', [['all', overall]]);
    printTable('by half of the projects (hashed)', groupBy(rows, 'half'));
    printTable('by CI system', groupBy(rows, 'ci'));
    printTable('by toolchain', groupBy(rows, 'toolchain'));
    printTable('by labelled category', groupBy(rows, 'category'));
    const errs = rows.filter((r) => r.error);
    if (errs.length) console.log(`\nCLI errors: ${errs.map((r) => `${r.id} (${r.error})`).join('; ')}`);
    console.log(`(per-log rows in bench-out/wild.json; ${overall.stepLabelled} logs with a labelled step, ${overall.pinLabelled} with a fix line)`);
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWild({ only: process.argv.slice(2) });
