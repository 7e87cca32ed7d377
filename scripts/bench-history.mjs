// History (issue 15) figures, printed by `npm run bench` (or alone: `node scripts/bench-history.mjs` after
// `npm run build`). Asserts nothing.
//  1. Evidence on real failing/passing pairs of the same jobs (fixtures/history-pairs, labelled by hand):
//     first evidence line is a labelled error line, precision, recall — without and with --passing-log,
//     and the naive diff (the last 12 new lines) for reference.
//  2. The history lookup on the local GitHub of the tests (bundled here with esbuild): API requests and
//     time per diagnosis, the log downloads excluded. Budget: ≤ 5 requests, ≤ 1 s.
//  3. A 1 GB passing log: time and peak RSS of the diff (a child process per run).
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { build } from 'esbuild';
import { Octokit } from '@octokit/rest';
import { diagnose } from '../dist/diagnose.js';
import { diffAgainstPassing } from '../dist/evidence/passing-diff.js';
import { readLog } from '../dist/log/read-log.js';
import { findFailingStep } from '../dist/log/find-failing-step.js';
import { findHistory } from '../dist/github/history.js';
import { evidenceFromNewLines } from '../dist/evidence/new-line-evidence.js';
import { MAX_STEP_LINES_FOR_MATCHERS } from '../dist/limits.js';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'bench-out');
mkdirSync(OUT, { recursive: true });
const PAIRS = join(ROOT, 'fixtures/history-pairs');
const NAIVE_LINES = 12;

// ── 1. Evidence on real pairs ──
// The naive diff of the issue (and of CiDiff's baseline): each line with its runner timestamp cut and
// its digits masked; the failing log's lines whose masked text the passing log never printed; the last 12.
const strip = (l) => l.replace(/\r$/, '').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z ?/, '').replace(/\d+/g, '0').trim();
function naive(failed, passed) {
  const seen = new Set(readFileSync(passed, 'utf8').split('\n').map(strip));
  const fresh = [];
  readFileSync(failed, 'utf8').split('\n').forEach((l, i) => { const t = strip(l); if (t && !seen.has(t)) fresh.push(i + 1); });
  return fresh.slice(-NAIVE_LINES);
}
// The same, on our masked templates within the aligned step (what diffAgainstPassing marks new).
async function templateNaive(failed, passed) {
  const scan = await readLog(failed);
  const layout = findFailingStep(scan.lines, scan.sections, scan.totalLines);
  const s = layout.failing;
  const lines = s ? scan.lines.filter((l) => l.n >= s.startLine && l.n <= s.endLine) : scan.lines;
  const d = await diffAgainstPassing({ lines, head: scan.lines.slice(0, 200), ...(s ? { step: s.name } : {}) }, { source: passed });
  return [...d.newLines].sort((a, b) => a - b).slice(-NAIVE_LINES);
}
const score = (lines, labelled) => {
  const hit = lines.filter((n) => labelled.has(n)).length;
  return { first: lines.length > 0 && labelled.has(lines[0]), p: lines.length ? hit / lines.length : 0, r: hit / labelled.size, n: lines.length };
};
const rows = { without: [], with: [], naive: [], template: [] };
const verbose = !!process.env.BENCH_HISTORY_VERBOSE;
for (const name of readdirSync(PAIRS).filter((n) => existsSync(join(PAIRS, n, 'labels.json'))).sort()) {
  const dir = join(PAIRS, name);
  const labelled = new Set(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')).errorLines);
  const failed = join(dir, 'failed.log');
  const passed = join(dir, 'passed.log');
  rows.without.push(score((await diagnose({ log: failed })).evidence.map((e) => e.line), labelled));
  const withLines = (await diagnose({ log: failed, passingLog: { source: passed } })).evidence.map((e) => e.line);
  rows.with.push(score(withLines, labelled));
  rows.naive.push(score(naive(failed, passed), labelled));
  rows.template.push(score(await templateNaive(failed, passed), labelled));
  if (verbose) {
    const f = (x) => `${x.first ? 'Y' : 'n'} P ${x.p.toFixed(2)} R ${x.r.toFixed(2)} (${x.n})`;
    console.log(`  ${name.slice(0, 44).padEnd(44)} with: ${f(rows.with.at(-1))}  naive: ${f(rows.naive.at(-1))}  without: ${f(rows.without.at(-1))}`);
    if (verbose && process.env.BENCH_HISTORY_VERBOSE === '2') console.log(`    with: ${withLines.join(',')}\n    missed: ${[...labelled].filter((n) => !withLines.includes(n)).join(',')}`);
  }
}
const mean = (xs, k) => xs.reduce((a, x) => a + Number(x[k]), 0) / (xs.length || 1);
console.log(`\nHistory: evidence on ${rows.with.length} real failing/passing pairs of the same jobs (fixtures/history-pairs)`);
console.log('                                          first line is an error   precision   recall');
for (const [k, label] of [['without', 'without --passing-log'], ['with', 'with --passing-log'], ['naive', `naive diff (digits masked, last ${NAIVE_LINES} new)`], ['template', `template diff in the step (last ${NAIVE_LINES} new)`]]) {
  console.log(`  ${label.padEnd(40)} ${`${(100 * mean(rows[k], 'first')).toFixed(0)}%`.padStart(10)}              ${mean(rows[k], 'p').toFixed(2).padStart(6)}   ${mean(rows[k], 'r').toFixed(2).padStart(6)}`);
}

// The worst case of the new-line evidence: a failing step at the matchers' bound, every line new, the
// real failure block of a pair repeated with its numbers changed (each header distinct, none restated).
{
  const src = readFileSync(join(PAIRS, 'jbanking-8761138559/failed.log'), 'utf8').split('\n').slice(588, 600).map((l) => l.slice(29));
  const lines = [];
  for (let i = 0; lines.length < MAX_STEP_LINES_FOR_MATCHERS; i++) for (const t of src) lines.push({ n: lines.length + 1, text: t.replace(/\d+/g, (d) => String(Number(d) + i)) });
  const all = new Set(lines.map((l) => l.n));
  const t0 = performance.now();
  const sel = evidenceFromNewLines(lines, all);
  console.log(`  worst case: ${lines.length} new lines of failures in the step: ${(performance.now() - t0).toFixed(0)} ms, ${sel.lines.length} lines in ${sel.blocks.length} blocks quoted`);
}

if (process.env.BENCH_HISTORY_EVIDENCE_ONLY) process.exit(0);

// ── 2. The history lookup on the local GitHub ──
const fakeBundle = join(OUT, 'fake-github.mjs');
await build({ entryPoints: [join(ROOT, 'test/helpers/fake-github/index.ts')], bundle: true, platform: 'node', format: 'esm', outfile: fakeBundle, packages: 'external', logLevel: 'silent' });
const { startFakeGitHub } = await import(fakeBundle);
const fake = await startFakeGitHub();
const REPO = 'octo-org/invoicer';
fake.addRepo(REPO);
const inst = Object.values(fake.state.installations).find((i) => i.repos.includes(REPO));
const token = `ghs_${randomBytes(18).toString('hex')}`;
fake.state.tokens[token] = { login: 'github-actions[bot]', installationId: inst.id, expires_at: '2099-01-01T00:00:00Z' };
const FAILING = readFileSync(join(ROOT, 'fixtures/logs/tsc-signature-change-call-site/log.txt'), 'utf8');
const PASSING = readFileSync(join(ROOT, 'fixtures/logs/tsc-signature-change-call-site/passing.log'), 'utf8');
const sha = (c) => c.repeat(40);
const ago = (d) => new Date(Date.now() - d * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
// Ten completed runs on main (the newest failed: pre-existing), the PR's failing run 900.
for (let i = 0; i < 10; i++) fake.addJob(REPO, { id: 8000 + i, run_id: 800 + i, name: 'typecheck', workflow_name: 'CI', head_sha: sha(String(i)), head_branch: 'main', event: 'push', conclusion: i === 9 ? 'failure' : 'success', started_at: ago(10 - i), log: i === 9 ? FAILING : PASSING });
fake.addJob(REPO, { id: 9000, run_id: 900, name: 'typecheck', workflow_name: 'CI', head_sha: sha('c'), head_branch: 'currency', started_at: ago(0), log: FAILING });
const gh = new Octokit({ auth: token, baseUrl: fake.url, log: { debug() {}, info() {}, warn() {}, error() {} } });
const q = { ref: { owner: 'octo-org', repo: 'invoicer' }, job: 'typecheck', runId: 900, runAttempt: 1, headSha: sha('c'), headBranch: 'currency', baseBranch: 'main' };
// The commits since the last green run (run 809), for the compare the 'new' lookup asks (part 5).
const patchFiles = readFileSync(join(ROOT, 'fixtures/logs/tsc-signature-change-call-site/head.patch'), 'utf8').split(/^diff --git /m).filter(Boolean)
  .map((sec) => ({ filename: /^\+\+\+ b\/(.+)$/m.exec(sec)[1], patch: sec.slice(sec.indexOf('\n@@') + 1).replace(/\n$/, '') }));
fake.addCompare(REPO, sha('9'), sha('c'), { commits: [{ sha: sha('b'), message: 'formatMoney takes a currency' }, { sha: sha('c'), message: 'invoices' }], files: patchFiles });
// A re-run: attempt 1 of run 900 passed the job that failed on attempt 2 (flaky through the attempts check).
fake.addJob(REPO, { id: 8999, run_id: 900, run_attempt: 1, name: 'typecheck', workflow_name: 'CI', head_sha: sha('c'), head_branch: 'currency', conclusion: 'success', started_at: ago(0), log: PASSING });
fake.repo(REPO).jobs[9000].run_attempt = 2;
const lookups = [];
// Twice: the fake compiles its OpenAPI validators on an operation's first request (its cost, not ours); the second pass is measured.
for (const pass of [0, 1]) for (const [label, extra] of [['App (workflow from the run)', {}], ['Action (workflow from GITHUB_WORKFLOW_REF)', { workflow: 'ci.yml' }]]) {
  for (const scenario of ['pre-existing', 'new + compare', 'flaky (re-run)']) {
    fake.repo(REPO).jobs[8009].conclusion = scenario === 'pre-existing' ? 'failure' : 'success';
    const t0 = performance.now();
    const found = await findHistory(gh, { ...q, ...extra, runAttempt: scenario === 'flaky (re-run)' ? 2 : 1 });
    const ms = performance.now() - t0;
    // The logs are opened (their link requested), not downloaded: what the diagnosis then reads is excluded.
    for (const s of [found.passingLog?.source, found.facts.baseFailing?.log, found.facts.baseFlip?.failed.log]) s?.destroy?.();
    if (pass) lookups.push({ label, scenario, requests: found.requests, ms, status: found.facts.passedOnRetry ? 'flaky' : found.facts.baseFailing ? 'base fails' : found.facts.lastGreen ? 'green found' : 'none', compared: found.priorDiff ? `${found.priorDiff.range.commits} commits, ${found.priorDiff.range.files} files compared` : '' });
  }
}
console.log('\nHistory lookup on the local GitHub (log download excluded; budget ≤ 5 requests, ≤ 1 s)');
for (const l of lookups) console.log(`  ${l.label.padEnd(44)} ${l.scenario.padEnd(15)} ${String(l.requests).padStart(2)} requests  ${l.ms.toFixed(0).padStart(5)} ms  ${l.status}${l.compared ? `; ${l.compared}` : ''}`);
console.log(`  OpenAPI violations: ${fake.violations.length}`);
await fake.close();

if (process.env.BENCH_HISTORY_LOOKUP_ONLY) process.exit(0);

// ── 3. A 1 GB passing log ──
const big = join(OUT, 'passing-1gb.log');
const TARGET = 1024 * 1024 * 1024;
if (!existsSync(big) || statSync(big).size < TARGET) {
  console.log('\ngenerating a 1 GB passing log (once; kept in bench-out/): the real passing log\'s test step repeated');
  const lines = PASSING.split('\n');
  const head = lines.slice(0, lines.findIndex((l) => l.includes('##[group]Run npx tsc')) + 4).join('\n') + '\n';
  const filler = readFileSync(join(PAIRS, 'jbanking-8761138559/passed.log'), 'utf8').split('\n').filter((l) => l.includes('[INFO]')).map((l) => l.slice(29)).join('\n') + '\n';
  const w = createWriteStream(big);
  w.write(head);
  let n = head.length;
  let k = 0;
  while (n < TARGET) {
    const chunk = filler.replace(/Time elapsed: [\d.]+/g, () => `Time elapsed: ${(k++ % 997) / 100}`);
    if (!w.write(chunk)) await once(w, 'drain');
    n += chunk.length;
  }
  w.end(lines.slice(lines.findIndex((l) => l.includes('##[group]Run npm run build'))).join('\n'));
  await once(w, 'finish');
}
const child = spawnSync(process.execPath, ['--input-type=module', '-e', `
  import { diagnose } from '${join(ROOT, 'dist/diagnose.js')}';
  const t0 = performance.now();
  const d = await diagnose({ log: '${join(ROOT, 'fixtures/logs/tsc-signature-change-call-site/log.txt')}', passingLog: { source: '${big}' } });
  console.log(JSON.stringify({ ms: performance.now() - t0, maxRssMB: process.resourceUsage().maxRSS / 1024, history: d.history, first: d.evidence[0]?.text }));
`], { encoding: 'utf8', maxBuffer: 1 << 20 });
const r = JSON.parse(child.stdout || '{}');
console.log(`\nA ${(statSync(big).size / 2 ** 20).toFixed(0)} MB passing log: ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.maxRssMB?.toFixed(0)} MB, aligned by ${r.history?.alignedBy}, ${r.history?.newLines} new lines, first evidence line: ${r.first}`);
if (child.status !== 0) console.log(child.stderr.slice(0, 500));
