// npm run bench:pins: real failures of real projects on their upstream trees (fixtures/real-pins/, from the
// BugSwarm dissection; format in fixtures/README.md). For each case the failing log and the failing commit's
// tree are read from the mirrors `fetch` brought to this machine (never committed), and the built CLI runs
//   redline diagnose --log <log> --repo <tree> --format json --no-llm            (no diff)
//   ... --base <parent of the failing commit>                                    (the breaking commit's diff)
// A pin is right when its file is a file the real fix changed (top-1 file) and its line one the fix changed
// (top-1 line). Prints both, top-3, and how many real test/compile failures were called infra, overall and
// for the two halves of the corpus (tuned on / held back, split by project). Prints figures; asserts nothing.
// With no mirrors here (CI has no network) it prints one line and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DISSECTION, gitDirOf } from './bench-pins-lib.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const CORPUS = join(ROOT, 'fixtures', 'real-pins');
const CLI = join(ROOT, 'dist', 'bin', 'redline.js');
const OUT = join(ROOT, 'bench-out');
// Trees are checked out once and kept here between runs (a shared clone: objects stay in the mirror).
const TREES = process.env.REDLINE_PIN_TREES ?? '/tmp/redline-pins';
// One diagnosis takes seconds; this only stops a hung run from stalling the bench.
const RUN_TIMEOUT_MS = 180_000;

/** Every case: { id, dir, c } sorted by id. Exported for tests. */
export function listPins(dir = CORPUS) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'case.json')))
    .map((d) => ({ id: d.name, dir: join(dir, d.name), c: JSON.parse(readFileSync(join(dir, d.name, 'case.json'), 'utf8')) }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The half a case belongs to: projects sorted by name, alternately tuned on (A) and held back (B), so no
 * project is in both halves and the held-back half measures rules on projects they were not shaped on.
 * A case whose case.json names its `half` (the projects added after the first split, all held back) keeps
 * it and is left out of the alternation, so adding projects never moves an earlier project across halves.
 */
export function halfOf(cases) {
  const fixed = new Map(cases.filter((x) => x.c.half).map((x) => [x.c.repo, x.c.half]));
  const projects = [...new Set(cases.map((x) => x.c.repo))].filter((p) => !fixed.has(p)).sort();
  return new Map([...projects.map((p, i) => [p, i % 2 === 0 ? 'tuned' : 'held-back']), ...fixed]);
}

function git(gitDir, ...a) {
  return spawnSync('git', gitDir ? [`--git-dir=${gitDir}`, ...a] : a, { encoding: 'utf8', maxBuffer: 256 << 20 });
}

/** The failing commit's tree as a git checkout (so --base can diff), reused when already there. */
function tree(c) {
  const dir = join(TREES, c.id);
  const gd = gitDirOf(c.repo);
  if (existsSync(join(dir, '.git'))) {
    const head = git(null, '-C', dir, 'rev-parse', 'HEAD').stdout.trim();
    if (head === c.failing) return dir;
    spawnSync('rm', ['-rf', dir]);
  }
  mkdirSync(TREES, { recursive: true });
  let r = git(null, 'clone', '--shared', '--no-checkout', '-q', gd, dir);
  if (r.status === 0) r = git(null, '-C', dir, '-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', c.failing);
  if (r.status !== 0) throw new Error(`${c.id}: checkout failed: ${r.stderr.trim()}`);
  return dir;
}

function logFile(c) {
  const p = join(TREES, `${c.id}.log`);
  if (existsSync(p)) return p;
  const r = spawnSync('git', [`--git-dir=${gitDirOf(c.log.dataset)}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`${c.id}: log not in the mirror: ${String(r.stderr).trim()}`);
  writeFileSync(p, r.stdout);
  return p;
}

function runCli(log, repo, base) {
  const argv = [CLI, 'diagnose', '--log', log, '--repo', repo, '--format', 'json', '--no-llm'];
  if (base) argv.push('--base', base);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, timeout: RUN_TIMEOUT_MS, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
  const ms = performance.now() - t0;
  try {
    return { d: JSON.parse(String(r.stdout)), ms };
  } catch {
    return { error: `exit ${r.status ?? r.signal}: ${String(r.stderr).trim().slice(0, 200)}`, ms };
  }
}

const norm = (p) => String(p ?? '').replace(/\\/g, '/').replace(/^\.\//, '');
/** How one diagnosis scores against the fix's lines. */
export function score(d, accept) {
  const fs = (d?.findings ?? []).map((f) => ({ file: norm(f.file), line: f.line }));
  const fileOk = (f) => accept.some((a) => a.file === f.file);
  const lineOk = (f) => accept.some((a) => a.file === f.file && a.line === f.line);
  return {
    file1: fs.length > 0 && fileOk(fs[0]),
    line1: fs.length > 0 && lineOk(fs[0]),
    file3: fs.slice(0, 3).some(fileOk),
    line3: fs.slice(0, 3).some(lineOk),
    infra: d?.category === 'infra',
    top: fs[0] ? `${fs[0].file}:${fs[0].line}` : '(no location)',
  };
}

/** Runs the bench and prints its figures (npm run bench calls this too). */
export function benchPins() {
  const all = listPins();
  const cases = all.filter(({ c }) => gitDirOf(c.repo) && gitDirOf(c.log.dataset ?? DISSECTION));
  if (!existsSync(CLI)) { console.log('real-project pins: skipped (dist/bin/redline.js missing: npm run build)'); return; }
  if (cases.length === 0) { console.log(`real-project pins: skipped (${all.length} cases, none of their mirrors on this machine; bring them with fetch)`); return; }
  const half = halfOf(cases);
  // `node scripts/bench-pins.mjs <id-substr>...`: only those cases (a rule's before/after on the cases it can move).
  const only = import.meta.url === `file://${process.argv[1]}` ? process.argv.slice(2) : [];
  const rows = [];
  for (const { id, c } of cases) {
    if (only.length && !only.some((o) => id.includes(o))) continue;
    const repo = tree(c);
    const log = logFile(c);
    const plain = runCli(log, repo);
    const diff = runCli(log, repo, c.base);
    const row = { id, repo: c.repo, language: c.language, half: half.get(c.repo), plain: plain.error ?? score(plain.d, c.accept), diff: diff.error ?? score(diff.d, c.accept), ms: Math.round(plain.ms + diff.ms) };
    rows.push(row);
    if (process.env.BENCH_PINS_VERBOSE) console.log(`${id}  ${row.plain.top ?? row.plain}  |  ${row.diff.top ?? row.diff}  accept ${c.accept.slice(0, 3).map((a) => `${a.file}:${a.line}`).join(' ')}`);
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'pins.json'), JSON.stringify(rows, null, 2));
  const pct = (xs, k) => (xs.length ? `${Math.round((100 * xs.filter((r) => r[k] === true).length) / xs.length)}%` : '-');
  const line = (name, rs) => {
    const p = rs.map((r) => r.plain).filter((x) => typeof x === 'object');
    const w = rs.map((r) => r.diff).filter((x) => typeof x === 'object');
    const infra = [...p, ...w].filter((x) => x.infra).length;
    return `  ${name.padEnd(22)} ${String(rs.length).padStart(3)}   no diff: file ${pct(p, 'file1').padStart(4)} line ${pct(p, 'line1').padStart(4)} (top-3 ${pct(p, 'file3')}/${pct(p, 'line3')})   with diff: file ${pct(w, 'file1').padStart(4)} line ${pct(w, 'line1').padStart(4)} (top-3 ${pct(w, 'file3')}/${pct(w, 'line3')})   infra ${infra}`;
  };
  const projects = new Set(rows.map((r) => r.repo)).size;
  console.log(`real-project pins (fixtures/real-pins: ${rows.length} failures of ${projects} projects on their upstream trees; right = a line the real fix changed)`);
  console.log(line('all', rows));
  for (const h of ['tuned', 'held-back']) console.log(line(h, rows.filter((r) => r.half === h)));
  for (const l of ['java', 'python']) console.log(line(l, rows.filter((r) => r.language === l)));
  const errors = rows.filter((r) => typeof r.plain === 'string' || typeof r.diff === 'string');
  if (errors.length) console.log(`  ${errors.length} runs failed: ${errors.map((r) => r.id).join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) benchPins();
