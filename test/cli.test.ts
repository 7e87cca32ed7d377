import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
// @ts-expect-error plain ESM helper shared with the golden test and the bench
import { layOutCase } from '../scripts/lay-out-case.mjs';

/**
 * The CLI contract of issue 2 §2, end to end: the built `redline` binary on real recorded cases, laid
 * out as git repos (base commit, then the PR's commit).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'dist/bin/redline.js');
const LOGS = join(ROOT, 'fixtures/logs');
const logOf = (name: string) => join(LOGS, name, 'log.txt');

const CONTRACT_KEYS = ['version', 'status', 'category', 'findings', 'evidence', 'evidenceBlocks', 'failingStep', 'summary', 'stats'];
const ANSI = /\x1b\[/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const ENV = { ...process.env };
delete ENV.NO_COLOR;
delete ENV.FORCE_COLOR;

function redline(args: string[], input?: string | Buffer): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    input: input ?? '',
    encoding: 'utf8',
    env: ENV,
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A usage error or an internal error: exactly one line on stderr, nothing on stdout. */
function expectOneLineError(r: Run, code: number, says: RegExp): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(/^redline: /);
  expect(r.stderr).toMatch(says);
}

const tmp: string[] = [];
function tmpDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'redline-cli-'));
  tmp.push(d);
  return d;
}

/** tsc: the PR changed formatMoney's signature and missed two calls (src/receipt.ts:15 and :17). */
const TSC = 'tsc-signature-change-call-site';
/** eslint --format unix with /home/runner/work/... absolute paths. */
const ESLINT = 'eslint-eqeqeq-unix-format';
/** Infra: the job ran out of V8 heap; Redline must abstain. */
const OOM = 'node-heap-out-of-memory';

let tsc: { repo: string; base: string };
let eslint: { repo: string; base: string };
let oom: { repo: string; base: string };

beforeAll(() => {
  // Under `npm test` the build ran just before vitest; building again would race with files loading dist/.
  if (process.env.npm_lifecycle_event !== 'test') execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
  tsc = layOutCase(join(LOGS, TSC));
  eslint = layOutCase(join(LOGS, ESLINT));
  oom = layOutCase(join(LOGS, OOM));
  tmp.push(tsc.repo, eslint.repo, oom.repo);
}, 180_000);

afterAll(() => {
  for (const d of tmp) rmSync(d, { recursive: true, force: true });
});

describe('redline diagnose: exit 0 when a diagnosis was produced', () => {
  it('located: a compile error pinned to file:line', () => {
    const r = redline(['diagnose', '--log', logOf(TSC), '--repo', tsc.repo, '--base', tsc.base, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.status).toBe('located');
    expect(d.category).toBe('compile');
    expect(d.findings[0]).toMatchObject({ file: 'src/receipt.ts', line: 15, cause: 'diagnostic' });
    expect(d.stats.changedFiles).toBe(2);
    expect(r.stderr).toBe('');
  });

  it('no-location: an infra failure is abstained on, still exit 0', () => {
    const r = redline(['diagnose', '--log', logOf(OOM), '--repo', oom.repo, '--base', oom.base, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.status).toBe('no-location');
    expect(d.category).toBe('infra');
    expect(d.findings).toEqual([]);
    expect(d.evidence.length).toBeGreaterThan(0);
    expect(d.evidence.some((e: { text: string }) => /heap out of memory/i.test(e.text))).toBe(true);
  });

  it('--help prints the usage on stdout and exits 0', () => {
    for (const args of [['--help'], ['diagnose', '--help']]) {
      const r = redline(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('usage: redline diagnose --log <file|->');
    }
  });
});

describe('usage errors: exit 2 with one line that says what to do', () => {
  it('no command', () => {
    expectOneLineError(redline([]), 2, /redline --help|redline diagnose/);
  });

  it('unknown command', () => {
    expectOneLineError(redline(['diagnoze', '--log', logOf(TSC)]), 2, /unknown command "diagnoze".*--help/);
  });

  it('missing --log', () => {
    expectOneLineError(redline(['diagnose', '--repo', tsc.repo]), 2, /--log is required/);
  });

  it('--log without a value', () => {
    expectOneLineError(redline(['diagnose', '--log']), 2, /--log/);
  });

  it('bad --format', () => {
    expectOneLineError(redline(['diagnose', '--log', logOf(TSC), '--format', 'xml']), 2, /--format xml is not one of text, json, markdown, sarif/);
  });

  it('--log that does not exist', () => {
    expectOneLineError(redline(['diagnose', '--log', join(tmpdir(), 'no-such-redline-log.txt')]), 2, /no such file; check the path/);
  });

  it('--log that is a directory', () => {
    expectOneLineError(redline(['diagnose', '--log', tsc.repo]), 2, /is a directory/);
  });

  it('--repo that is not a directory', () => {
    expectOneLineError(redline(['diagnose', '--log', logOf(TSC), '--repo', logOf(TSC)]), 2, /--repo .*not a readable directory/);
  });

  it('--base without --repo', () => {
    expectOneLineError(redline(['diagnose', '--log', logOf(TSC), '--base', 'main']), 2, /--base needs --repo/);
  });

  it('unknown flag', () => {
    expectOneLineError(redline(['diagnose', '--log', logOf(TSC), '--frobnicate']), 2, /--frobnicate.*redline diagnose --help/);
  });

  it('a stray positional argument', () => {
    expectOneLineError(redline(['diagnose', logOf(TSC)]), 2, /redline diagnose --help/);
  });
});

describe('internal errors: exit 1 with one line that says what to do', () => {
  it('--base that is not a commit of the repo', () => {
    for (const base of ['no-such-branch', '0123456789abcdef0123456789abcdef01234567']) {
      const r = redline(['diagnose', '--log', logOf(TSC), '--repo', tsc.repo, '--base', base, '--format', 'json']);
      expectOneLineError(r, 1, /check that --base names a commit of this repo/);
      expect(r.stderr).toContain(base);
    }
  });

  it('--base on a folder that is not a git repository', () => {
    const notGit = tmpDir();
    expectOneLineError(redline(['diagnose', '--log', logOf(TSC), '--repo', notGit, '--base', 'main']), 1, /--base/);
  });
});

describe('--format json', () => {
  it('prints exactly one JSON object, version 2, the contract keys in order', () => {
    const r = redline(['diagnose', '--log', logOf(TSC), '--repo', tsc.repo, '--base', tsc.base, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimStart().startsWith('{')).toBe(true);
    expect(r.stdout.trimEnd().endsWith('}')).toBe(true);
    const d = JSON.parse(r.stdout); // throws on anything but one JSON value
    expect(Object.keys(d)).toEqual(CONTRACT_KEYS);
    expect(d.version).toBe(2);
    expect(['located', 'no-location']).toContain(d.status);
    expect(d.failingStep).toEqual({ name: expect.any(String), startLine: expect.any(Number), endLine: expect.any(Number), format: 'github-actions' });
    for (const e of d.evidence) expect(Object.keys(e)).toEqual(['line', 'text', 'block']);
    for (const b of d.evidenceBlocks) expect(Object.keys(b)).toEqual(['start', 'end', 'header', 'kind', 'source']);
    for (const e of d.evidence) expect(e.block).toBeLessThan(d.evidenceBlocks.length);
    // Evidence lines are lines of the input log, 1-based, with their cleaned text.
    const raw = readFileSync(logOf(TSC), 'utf8').split('\n');
    for (const e of d.evidence) expect(raw[e.line - 1]).toContain(e.text);
    expect(ANSI.test(r.stdout)).toBe(false);
  });

  it("findings' files are relative to the repo root with / (log paths were absolute CI paths)", () => {
    const r = redline(['diagnose', '--log', logOf(ESLINT), '--repo', eslint.repo, '--base', eslint.base, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.status).toBe('located');
    expect(d.category).toBe('lint');
    expect(d.findings.length).toBeGreaterThan(0);
    for (const f of d.findings) {
      expect(f.file).not.toMatch(/^\/|\\|^[A-Za-z]:|^\.\.?\//);
      expect(existsSync(join(eslint.repo, f.file))).toBe(true);
      expect(Number.isInteger(f.line) && f.line >= 1).toBe(true);
      for (const k of ['file', 'line', 'message', 'confidence', 'cause', 'evidence']) expect(f).toHaveProperty(k);
    }
    expect(d.findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toContain('src/lib/prices.js:2');
  });
});

describe('other formats', () => {
  it('--format sarif is SARIF 2.1.0 with a result at the pinned file:line', () => {
    const r = redline(['diagnose', '--log', logOf(TSC), '--repo', tsc.repo, '--base', tsc.base, '--format', 'sarif']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.version).toBe('2.1.0');
    expect(s.runs).toHaveLength(1);
    const locs = s.runs[0].results.flatMap((res: { locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }) =>
      res.locations.map((l) => `${l.physicalLocation.artifactLocation.uri}:${l.physicalLocation.region.startLine}`),
    );
    expect(locs[0]).toBe('src/receipt.ts:15');
  });

  it('--format markdown contains the pin', () => {
    const r = redline(['diagnose', '--log', logOf(TSC), '--repo', tsc.repo, '--base', tsc.base, '--format', 'markdown']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('src/receipt.ts:15');
    expect(ANSI.test(r.stdout)).toBe(false);
  });

  it('--format text (the default) on a pipe has the pin and no ANSI escapes', () => {
    for (const args of [['--format', 'text'], []]) {
      const r = redline(['diagnose', '--log', logOf(TSC), '--repo', tsc.repo, '--base', tsc.base, ...args]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('src/receipt.ts:15');
      expect(ANSI.test(r.stdout)).toBe(false);
      expect(ANSI.test(r.stderr)).toBe(false); // no progress on a pipe
    }
  });
});

describe('--log - reads stdin', () => {
  const expected = () => JSON.parse(redline(['diagnose', '--log', logOf(TSC), '--repo', tsc.repo, '--format', 'json']).stdout);
  const strip = (d: { stats: { ms?: number } }) => ({ ...d, stats: { ...d.stats, ms: 0 } });

  it('a piped log gives the same diagnosis as the file', () => {
    const r = redline(['diagnose', '--log', '-', '--repo', tsc.repo, '--format', 'json'], readFileSync(logOf(TSC)));
    expect(r.code, r.stderr).toBe(0);
    expect(strip(JSON.parse(r.stdout))).toEqual(strip(expected()));
  });

  it('a gzipped piped log is detected and read', () => {
    const r = redline(['diagnose', '--log', '-', '--repo', tsc.repo, '--format', 'json'], gzipSync(readFileSync(logOf(TSC))));
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.findings[0]).toMatchObject({ file: 'src/receipt.ts', line: 15 });
    expect(strip(d)).toEqual(strip(expected()));
  });
});

describe('--artifacts', () => {
  function expectArtifacts(dir: string, rawBytes: Buffer, r: Run): void {
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['raw.log', 'cleaned.log', 'diagnosis.json', 'trace.json']) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(readFileSync(join(dir, 'raw.log')).equals(rawBytes)).toBe(true);
    const diagnosis = JSON.parse(readFileSync(join(dir, 'diagnosis.json'), 'utf8'));
    expect(Object.keys(diagnosis)).toEqual(CONTRACT_KEYS);
    expect(diagnosis.findings[0]).toMatchObject({ file: 'src/receipt.ts', line: 15 });
    const trace = JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8'));
    expect(trace.signals.length).toBeGreaterThan(0);
    expect(trace.candidates.length).toBeGreaterThan(0);
    expect(trace.candidates[0]).toHaveProperty('score');
    const cleaned = readFileSync(join(dir, 'cleaned.log'), 'utf8');
    expect(cleaned).toContain('error TS2554');
    expect(ANSI.test(cleaned)).toBe(false);
    // The CLI says where, on stderr, in one line; stdout is the report alone.
    expect(r.stderr.trim()).toBe(`redline: artifacts written to ${resolve(dir)}`);
  }

  it('writes raw.log (byte-identical), cleaned.log, diagnosis.json and trace.json, and says where', () => {
    const dir = join(tmpDir(), 'nested', 'out');
    const r = redline(['diagnose', '--log', logOf(TSC), '--repo', tsc.repo, '--base', tsc.base, '--format', 'json', '--artifacts', dir]);
    expectArtifacts(dir, readFileSync(logOf(TSC)), r);
    // diagnosis.json is what --format json printed.
    const strip = (d: { stats: object }) => ({ ...d, stats: { ...d.stats, ms: 0 } });
    expect(strip(JSON.parse(readFileSync(join(dir, 'diagnosis.json'), 'utf8')))).toEqual(strip(JSON.parse(r.stdout)));
  });

  it('keeps a gzipped stdin log as its text, byte for byte (a compressed secret could not be redacted)', () => {
    const dir = tmpDir();
    const plain = readFileSync(logOf(TSC));
    const gz = gzipSync(plain);
    const r = redline(['diagnose', '--log', '-', '--repo', tsc.repo, '--base', tsc.base, '--format', 'text', '--artifacts', dir], gz);
    expectArtifacts(dir, plain, r);
    expect(r.stdout).toContain('src/receipt.ts:15');
  });
});

describe('without --repo', () => {
  it('reports paths as the log names them (CI prefix stripped), with category and evidence', () => {
    const r = redline(['diagnose', '--log', logOf(ESLINT), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(Object.keys(d)).toEqual(CONTRACT_KEYS);
    expect(d.category).toBe('lint');
    expect(d.evidence.length).toBeGreaterThan(0);
    expect(d.evidence[0].text).toContain('prices.js:2:15');
    expect(d.failingStep).not.toBeNull();
    expect(d.findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual(['src/lib/prices.js:2', 'src/lib/prices.js:8', 'src/lib/stock.js:8']);
    expect(d.stats.filesInRepo).toBeUndefined();
  });

  it('still classifies and abstains on infra', () => {
    const r = redline(['diagnose', '--log', logOf(OOM), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({ status: 'no-location', category: 'infra', findings: [] });
    expect(d.evidence.length).toBeGreaterThan(0);
  });
});
