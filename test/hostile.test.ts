import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { diagnose } from '../src/diagnose.js';
import { runCli } from '../src/doors/cli.js';
import { renderMarkdown, renderText } from '../src/report/index.js';
import { ConfigError, defaultConfig, loadConfig } from '../src/config.js';
import { readRepoSettings } from '../src/github/repo-config.js';
import { checkoutAt } from '../src/github/checkout.js';
import type { GitHub } from '../src/github/client.js';
import { TooLargeError } from '../src/github/errors.js';
import { globTool, grepTool, readTool, runTool } from '../src/locate/tools/index.js';
import type { Diagnosis } from '../src/types.js';
import { makeTarball } from './helpers/fake-github/tarball.js';
import {
  REAL_FAILURE,
  bombTarball,
  junkConfig,
  manyLinesNoNewline,
  markupPayloadLog,
  nulLog,
  oneHugeLine,
  randomLog,
  sparseLog,
} from '../fixtures/hostile/generate.js';

/**
 * The hostile corpus (fixtures/hostile/, see its README): every input goes through a real entry point
 * and ends in a clear error or a clean result, never a crash, and nothing secret leaks into any output.
 * Canaries are built from parts here; big inputs are generated into a temp dir and deleted after.
 */
const HOSTILE = new URL('../fixtures/hostile/', import.meta.url);
const fixture = (name: string) => new URL(name, HOSTILE).pathname;

const T = mkdtempSync(join(tmpdir(), 'redline-hostile-corpus-'));
const salt = randomBytes(6).toString('hex');
const ENV_CANARY = ['canary', 'env', salt].join('-');
const FILE_CANARY = ['canary', 'file', salt].join('-');
const SSH_CANARY = ['canary', 'ssh', salt].join('-');
const CANARIES = [ENV_CANARY, FILE_CANARY, SSH_CANARY];
/** Entries of this process's real /proc/self/environ (what a followed symlink would show). */
const ENVIRON = existsSync('/proc/self/environ')
  ? readFileSync('/proc/self/environ', 'latin1').split('\0').filter((e) => e.length >= 16 && e.includes('='))
  : [];

beforeAll(() => {
  process.env.REDLINE_HOSTILE_CANARY = ENV_CANARY;
});
afterAll(() => {
  delete process.env.REDLINE_HOSTILE_CANARY;
  rmSync(T, { recursive: true, force: true });
});

function expectNoLeak(...outputs: string[]): void {
  for (const out of outputs) {
    for (const c of CANARIES) expect(out, 'a canary leaked').not.toContain(c);
    for (const e of ENVIRON) expect(out.includes(e), `an environ entry leaked: ${e.split('=')[0]}`).toBe(false);
  }
}

/** Runs the CLI in-process; returns exit code and both streams. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const sink = () => {
    const chunks: string[] = [];
    const w = new Writable({
      write(c, _e, cb) {
        chunks.push(String(c));
        cb();
      },
    });
    return { w, text: () => chunks.join('') };
  };
  const out = sink();
  const err = sink();
  const code = await runCli(args, { stdout: out.w, stderr: err.w, version: '0.0.0-test', env });
  return { code, stdout: out.text(), stderr: err.text() };
}

const HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u2060-\u2064\u061C\u180E\u00AD\x00-\x08\x0B-\x1F\x7F-\x9F]/;

/** Markdown with fenced blocks and code spans removed: what GitHub would interpret. */
function outsideCode(md: string): string {
  const lines = md.split('\n');
  const kept: string[] = [];
  let fence: string | undefined;
  for (const l of lines) {
    const m = /^(`{3,}|~{3,})/.exec(l);
    if (fence) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && l.trim() === m[1]) fence = undefined;
      continue;
    }
    if (m) {
      fence = m[1]!;
      continue;
    }
    kept.push(l);
  }
  // Code spans: a run of N backticks up to the next run of exactly N; <code>…</code> elements too.
  return kept
    .join('\n')
    .replace(/(`+)([^`]|(?!\1)`)*?\1/g, '')
    .replace(/<code>[^<]*<\/code>/g, '');
}

/** Rendered markdown is inert: no hidden characters, no raw HTML beyond our own skeleton, no pings, no outside links. */
function expectInertMarkdown(md: string): void {
  expect(md).not.toMatch(HIDDEN);
  const live = outsideCode(md);
  const tags = [...live.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g)].map((m) => m[1]!.toLowerCase());
  for (const t of tags) expect(['details', 'summary', 'sub', 'sup', 'br', 'b', 'code'], `raw <${t}> in the comment`).toContain(t);
  expect(live).not.toMatch(/<img|<script|<a\s|<!--(?! redline)|\]\(javascript:/i);
  expect(live, 'an @mention outside code').not.toMatch(/(?<![A-Za-z0-9_\\`])@[A-Za-z0-9]/);
  expect(live, 'an outside link').not.toMatch(/evil\.example/);
  expect(live).not.toMatch(/!\[/);
}

function injectionOnlyInCode(md: string): void {
  expect(md.toLowerCase(), 'the injection is quoted (in code), not dropped').toContain('ignore previous instructions');
  expect(outsideCode(md).toLowerCase()).not.toContain('ignore previous instructions');
}

const realFailureOf = (d: Diagnosis) => {
  expect(d.status).toBe('located');
  expect(d.findings[0]).toMatchObject({ file: 'src/duration.ts', line: 28 });
};

/** The workspace layout shared by the symlink tests: T/ws/.env (canary), T/home/.ssh, T/ws/repo. */
const HOME = join(T, 'home');
const WS = join(T, 'ws');
const REPO = join(WS, 'repo');
const DURATION = readFileSync(new URL('../fixtures/logs/tsc-return-type-mismatch/base/src/duration.ts', import.meta.url), 'utf8');
beforeAll(() => {
  mkdirSync(join(HOME, '.ssh'), { recursive: true });
  writeFileSync(join(HOME, '.ssh', 'id_rsa'), `not a key, only a canary: ${SSH_CANARY}\n`);
  mkdirSync(join(REPO, 'src'), { recursive: true });
  writeFileSync(join(WS, '.env'), `REDLINE_CANARY=${FILE_CANARY}\n`);
  writeFileSync(join(REPO, 'src', 'duration.ts'), DURATION);
  symlinkSync('/proc/self/environ', join(REPO, 'environ'));
  symlinkSync(join(HOME, '.ssh'), join(REPO, 'ssh'));
  symlinkSync('..', join(REPO, 'up'));
  symlinkSync('../../.env', join(REPO, 'src', 'leak.ts'));
});

const SYMLINK_LOG = [
  '> tsc --noEmit',
  "environ(1,1): error TS1005: ';' expected.",
  "ssh/id_rsa(1,5): error TS1005: ';' expected.",
  "up/.env(1,1): error TS1005: ';' expected.",
  "src/leak.ts(1,1): error TS1005: ';' expected.",
  "../.env(1,1): error TS1005: ';' expected.",
  "/proc/self/environ(1,1): error TS1005: ';' expected.",
  '##[error]Process completed with exit code 2.',
].join('\n');
const FORBIDDEN_PINS = ['environ', 'ssh/id_rsa', 'up/.env', 'src/leak.ts', '../.env', '/proc/self/environ'];

describe('hostile corpus: prompt injection', () => {
  it('a log that asks to read ../../.env: the comment quotes it inert, the pin is the real failure', { timeout: 60_000 }, async () => {
    const d = await diagnose({ log: fixture('prompt-injection.log') });
    realFailureOf(d);
    const md = renderMarkdown(d);
    expectInertMarkdown(md);
    injectionOnlyInCode(md);
    const text = renderText(d, { color: false, escapeCommands: true });
    const viaCli = await cli(['diagnose', '--log', fixture('prompt-injection.log'), '--format', 'markdown']);
    expect(viaCli.code).toBe(0);
    expect(viaCli.stdout).toBe(md.endsWith('\n') ? md : md + '\n');
    expectNoLeak(md, text, JSON.stringify(d), viaCli.stdout, viaCli.stderr);
  });

  it('a source comment with the same injection: the excerpt quotes it inside code, nothing else', { timeout: 60_000 }, async () => {
    const repo = join(T, 'source-injection');
    cpSync(fixture('source-injection/'), repo, { recursive: true });
    writeFileSync(join(repo, '..', '.env'), `REDLINE_CANARY=${FILE_CANARY}\n`);
    const log = join(repo, 'build.log');
    const md = await cli(['diagnose', '--log', log, '--repo', repo, '--format', 'markdown', '--no-llm']);
    const text = await cli(['diagnose', '--log', log, '--repo', repo, '--format', 'text', '--no-llm']);
    const json = await cli(['diagnose', '--log', log, '--repo', repo, '--format', 'json', '--no-llm']);
    for (const r of [md, text, json]) expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(json.stdout) as Diagnosis;
    expect(d.findings[0]).toMatchObject({ file: 'src/money.ts', line: 4 });
    expectInertMarkdown(md.stdout);
    injectionOnlyInCode(md.stdout);
    expectNoLeak(md.stdout, md.stderr, text.stdout, text.stderr, json.stdout);
  });
});

describe('hostile corpus: symlinks to /proc/self/environ, ~/.ssh and ..', () => {
  it('the read, grep and glob tools refuse or skip every link out', { timeout: 60_000 }, async () => {
    const ctx = { root: REPO };
    for (const path of ['environ', 'ssh/id_rsa', 'ssh', 'up/.env', 'up/../.env', 'src/leak.ts', '../.env', '/proc/self/environ', `${HOME}/.ssh/id_rsa`]) {
      const r = await runTool(readTool, { path }, ctx);
      expect(r.metadata.error, `read ${path}: ${r.output}`).toBeDefined();
      expectNoLeak(r.output, r.title);
    }
    for (const pattern of ['canary', 'REDLINE', 'PATH=']) {
      const r = await runTool(grepTool, { pattern }, ctx);
      expectNoLeak(r.output);
      expect(r.output).not.toMatch(/environ|id_rsa|\.env|leak\.ts/);
    }
    for (const path of ['ssh', 'up', '..']) {
      const r = await runTool(grepTool, { pattern: 'canary', path }, ctx);
      expectNoLeak(r.output);
    }
    const g = await runTool(globTool, { pattern: '**/*' }, ctx);
    expect(g.output).not.toMatch(/id_rsa|\.env/);
    expectNoLeak(g.output);
  });

  it('diagnose never pins or quotes through them (library and CLI, every format)', { timeout: 60_000 }, async () => {
    const log = join(T, 'symlinks.log');
    writeFileSync(log, SYMLINK_LOG);
    const d = await diagnose({ log, repo: REPO });
    for (const f of d.findings) expect(FORBIDDEN_PINS, `pinned ${f.file}`).not.toContain(f.file);
    const outs: string[] = [JSON.stringify(d), renderMarkdown(d), renderText(d, { color: false })];
    for (const format of ['text', 'markdown', 'json', 'sarif']) {
      const r = await cli(['diagnose', '--log', log, '--repo', REPO, '--format', format, '--no-llm']);
      expect(r.code, r.stderr).toBe(0);
      outs.push(r.stdout, r.stderr);
    }
    expectNoLeak(...outs);
  });

  it('a tarball carrying the same links (and ..) checks out without them; diagnose on it pins nothing through them', { timeout: 60_000 }, async () => {
    const tgz = makeTarball(
      {
        'src/duration.ts': DURATION,
        environ: { symlink: '/proc/self/environ' },
        ssh: { symlink: join(HOME, '.ssh') },
        up: { symlink: '..' },
        'src/leak.ts': { symlink: '../../.env' },
        '../.env': `REDLINE_CANARY=${FILE_CANARY}\n`,
      },
      'octo-hostile-abc1234',
    );
    const gh = { request: async () => ({ status: 200, headers: {}, data: tgz.buffer.slice(tgz.byteOffset, tgz.byteOffset + tgz.byteLength) }) } as unknown as GitHub;
    const cache = join(T, 'cache');
    const dir = await checkoutAt(gh, { owner: 'octo', repo: 'hostile' }, 'b'.repeat(40), { cacheDir: cache });
    expect(readdirSync(dir).sort()).toEqual(['.redline-checkout.json', 'src']);
    expect(readdirSync(join(dir, 'src'))).toEqual(['duration.ts']);
    expect(existsSync(join(cache, 'octo', '.env'))).toBe(false);
    const log = join(T, 'symlinks-tar.log');
    // The real failure inside the same failing step as the hostile paths (before its exit line): a log
    // whose copy starts inside a step makes everything up to the runner's exit line that step's output.
    writeFileSync(log, SYMLINK_LOG.replace('##[error]Process completed', `${REAL_FAILURE}\n##[error]Process completed`) + '\n');
    const d = await diagnose({ log, repo: dir });
    for (const f of d.findings) expect(FORBIDDEN_PINS).not.toContain(f.file);
    expect(d.findings[0]).toMatchObject({ file: 'src/duration.ts', line: 28 });
    expectNoLeak(JSON.stringify(d), renderMarkdown(d));
  });

  it('a decompression bomb (10 GB of zeros in a few MB of gzip) stops at the cap with a clear error, leaves nothing', { timeout: 120_000 }, async () => {
    const gh = { request: async () => ({ status: 200, headers: {}, data: Readable.toWeb(bombTarball(10 * 1024 ** 3)) }) } as unknown as GitHub;
    const cache = join(T, 'bomb-cache');
    await expect(checkoutAt(gh, { owner: 'octo', repo: 'bomb' }, 'c'.repeat(40), { cacheDir: cache, maxExtractedBytes: 64 * 1024 * 1024 })).rejects.toThrow(TooLargeError);
    const left = existsSync(join(cache, 'octo', 'bomb')) ? readdirSync(join(cache, 'octo', 'bomb')) : [];
    expect(left).toEqual([]);
  });
});

describe('hostile corpus: shapes of log', () => {
  const dir = join(T, 'logs');
  beforeAll(() => mkdirSync(dir, { recursive: true }));

  it('200,000 lines and no newline at the end: the last line is the failure, and it is found', { timeout: 120_000 }, async () => {
    const log = manyLinesNoNewline(dir);
    const r = await cli(['diagnose', '--log', log, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Diagnosis;
    realFailureOf(d);
    expect(d.stats.lines).toBe(200_000);
    rmSync(log);
  });

  // 2 GB (sparse: truncate holes, a newline every MB) with the real failure appended: the file fast path.
  it('a 2 GB sparse log with a real failure at the end: found through the file fast path', { timeout: 300_000 }, async () => {
    const log = sparseLog(dir, 2 * 1024 ** 3);
    try {
      const d = await diagnose({ log });
      realFailureOf(d);
      expect(d.stats.bytes).toBeGreaterThan(2 * 1024 ** 3);
      for (const e of d.evidence) expect(e.text.length).toBeLessThan(20_000);
      expectInertMarkdown(renderMarkdown(d));
    } finally {
      rmSync(log, { force: true });
    }
  });

  it('one 50 MB line: a clean "no location", bounded evidence', { timeout: 120_000 }, async () => {
    const log = oneHugeLine(dir);
    try {
      const r = await cli(['diagnose', '--log', log, '--format', 'json']);
      expect(r.code, r.stderr).toBe(0);
      const d = JSON.parse(r.stdout) as Diagnosis;
      expect(d.status).toBe('no-location');
      expect(d.stats.lines).toBe(1);
      expect(r.stdout.length).toBeLessThan(200_000);
      const md = renderMarkdown(d);
      expect(md.length).toBeLessThanOrEqual(65_536);
      expectInertMarkdown(md);
    } finally {
      rmSync(log, { force: true });
    }
  });

  for (const [name, make] of [
    ['NUL-filled', nulLog],
    ['random-binary', randomLog],
  ] as const) {
    it(`a ${name} log through the CLI: exit 0, "no location", nothing quoted`, { timeout: 60_000 }, async () => {
      const log = make(dir);
      for (const format of ['text', 'markdown', 'json']) {
        const r = await cli(['diagnose', '--log', log, '--format', format]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.length).toBeLessThan(20_000);
        expect(r.stdout).not.toMatch(HIDDEN);
        if (format === 'json') {
          const d = JSON.parse(r.stdout) as Diagnosis;
          expect(d.status).toBe('no-location');
          expect(d.evidence).toEqual([]);
        }
      }
    });
  }
});

describe('hostile corpus: what we post and print', () => {
  it('markdown/HTML/mention/bidi/zero-width payloads are rendered inert in the comment', { timeout: 60_000 }, async () => {
    const log = markupPayloadLog(T);
    const d = await diagnose({ log });
    expect(d.findings[0]).toMatchObject({ file: 'src/duration.ts', line: 28 });
    const md = renderMarkdown(d, { permalink: () => 'https://github.com/octo/x/blob/abc/src/duration.ts#L28' });
    expectInertMarkdown(md);
    // The payload is still shown (as text), not silently dropped.
    expect(md).toContain('onerror');
    const text = renderText(d, { color: false });
    expect(text).not.toMatch(HIDDEN);
    expect(text).not.toContain('\x1b');
  });

  it('workflow-command payloads (::add-mask::, ::set-output, ##[error]) are escaped by the Action-mode text reporter', { timeout: 60_000 }, async () => {
    const d = await diagnose({ log: fixture('workflow-commands.log') });
    // The `::error file=…,line=1::` line is a (forged) annotation, a signal like any other: the pin may use it.
    expect(d.findings[0]?.file).toBe('src/duration.ts');
    const text = renderText(d, { color: false, escapeCommands: true });
    expect(text).toContain('add-mask'); // shown, but inert
    for (const line of text.split('\n')) {
      expect(line.trimStart().startsWith('::'), line).toBe(false);
      expect(line, line).not.toContain('##[');
    }
  });
});

describe('hostile corpus: .github/redline.yml', () => {
  const cases: [string, (repo: string) => void][] = [
    ['billion laughs (aliases)', (repo) => {
      mkdirSync(join(repo, '.github'), { recursive: true });
      cpSync(fixture('billion-laughs.yml'), join(repo, '.github', 'redline.yml'));
    }],
    ['10 MB of random bytes', (repo) => void junkConfig(repo, 'random')],
    ['60 KB of nested [ (under the 64 KB cap)', (repo) => void junkConfig(repo, 'nested', 60 * 1024)],
    ['10 MB of nested [ (refused by size before the parser sees it)', (repo) => void junkConfig(repo, 'nested')],
    ['10 MB unterminated string then junk', (repo) => void junkConfig(repo, 'text')],
  ];
  for (const [name, write] of cases) {
    it(`${name}: a clear ConfigError; the CLI says so and still diagnoses`, { timeout: 60_000 }, async () => {
      const repo = mkdtempSync(join(T, 'cfg-'));
      mkdirSync(join(repo, 'src'), { recursive: true });
      writeFileSync(join(repo, 'src', 'duration.ts'), DURATION);
      write(repo);
      const err = await loadConfig(repo).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/^\.github\/redline\.yml: /);
      expect((err as Error).message.length).toBeLessThan(1_000);
      const log = join(repo, 'build.log');
      writeFileSync(log, REAL_FAILURE + '\n');
      // A key (not a real one) turns on the config read; the bad file turns LLM mode off, with one line.
      const r = await cli(['diagnose', '--log', log, '--repo', repo, '--format', 'json'], { ANTHROPIC_API_KEY: ['test', 'only', 'not', 'a', 'key'].join('-') });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/redline: \.github\/redline\.yml: .*; running without LLM mode\n$/);
      expect(r.stderr.length).toBeLessThan(1_000);
      realFailureOf(JSON.parse(r.stdout) as Diagnosis);
      expect(statSync(log).size).toBeGreaterThan(0);
    });
  }

  it('the App refuses 10 MB of nested [ by size before parsing: the defaults plus a clear ConfigError', { timeout: 60_000 }, async () => {
    const repo = mkdtempSync(join(T, 'cfg-app-'));
    const content = readFileSync(junkConfig(repo, 'nested'));
    const gh = {
      request: async () => ({ status: 200, headers: {}, data: { type: 'file', encoding: 'base64', size: content.length, content: content.toString('base64') } }),
    } as unknown as GitHub;
    const s = await readRepoSettings(gh, { owner: 'octo', repo: 'cfg' }, 'main');
    expect(s.error).toBeInstanceOf(ConfigError);
    expect(s.error!.message).toMatch(/^\.github\/redline\.yml: is larger than 64 KB/);
    expect(s.config).toEqual(defaultConfig());
  });
});
