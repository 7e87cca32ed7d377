import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import stripAnsi from 'strip-ansi';
// @ts-expect-error plain ESM helper shared with the golden test and the bench
import { layOutCase } from '../../scripts/lay-out-case.mjs';
import { corpusSeed, notSecrets, secretCorpus, type FakeSecret } from './secret-corpus.js';

/**
 * Issue 13's corpus, end to end: real-shaped fakes of 70+ providers printed inside the failing line of
 * a real failing tsc step (fixtures/logs/tsc-signature-change-call-site), in six placements, through the
 * built CLI in every format with --artifacts. No secret may reach stdout, stderr or any artifact, in any
 * spelling (as is, ANSI-stripped, URL- or base64-encoded); placeholders and hashes must stay readable.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'dist/bin/redline.js');
const CASE = join(ROOT, 'fixtures/logs/tsc-signature-change-call-site');
const FORMATS = ['markdown', 'json', 'text', 'sarif'] as const;
/** The long-line placement: every secret on one line of this many characters. */
const LONG_LINE = 100_000;

const SEED = corpusSeed();
const CORPUS = secretCorpus(SEED);
const KEEP = notSecrets(SEED);
const b64 = (s: string) => Buffer.from(s).toString('base64');

type Placement = 'alone' | 'long-line' | 'ansi' | 'base64' | 'json' | 'url-encoded';

/** The failing tsc line with `extra` printed into it (and `after` as lines of their own below it). */
function logWith(line: (failing: string) => string, after: string[] = []): string {
  const lines = readFileSync(join(CASE, 'log.txt'), 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('error TS'));
  const stamp = lines[at]!.slice(0, 29); // the runner's timestamp prefix
  lines.splice(at, 1, line(lines[at]!), ...after.map((a) => stamp + a));
  return lines.join('\n');
}

const oneLine = CORPUS.filter((s) => !s.multiline);

/** How each placement prints the corpus, and the spellings of a secret that must not come out. */
const PLACEMENTS: Record<Placement, { log: () => string; forms: (s: FakeSecret) => string[] }> = {
  alone: {
    log: () => logWith((l) => `${l} config: ${KEEP.join(' ')}`, CORPUS.flatMap((s) => s.text.split('\n'))),
    forms: (s) => [s.secret],
  },
  'long-line': {
    log: () => {
      const body = oneLine.map((s) => s.text).join(' | ');
      return logWith((l) => `${l} config dump: ${body} ${'padding '.repeat(Math.ceil((LONG_LINE - body.length) / 8))}`.slice(0, LONG_LINE + body.length));
    },
    forms: (s) => [s.secret],
  },
  ansi: {
    // Coloured, with an escape code inside the token, or printed over a `\r` progress frame. (A token cut
    // in two by `\r` is a unit test: the cleaned log keeps only the last frame, half a token, no shape.)
    log: () =>
      logWith(
        (l) => l,
        oneLine.map((s, i) => {
          const half = Math.floor(s.text.length / 2);
          if (i % 3 === 0) return `\x1b[33mwarn\x1b[0m \x1b[31m${s.text}\x1b[0m`;
          if (i % 3 === 1) return `\x1b[31m${s.text.slice(0, half)}\x1b[1m${s.text.slice(half)}\x1b[0m`;
          return `uploading 40%\r${s.text}`;
        }),
      ),
    forms: (s) => [s.secret],
  },
  base64: {
    log: () => logWith((l) => l, oneLine.map((s) => `decoded config: ${b64(s.text)}`)),
    forms: (s) => [s.secret, b64(s.text)],
  },
  json: {
    // A structured logger's line; every other one escapes '/' as '\/' (PHP's json_encode, some Java loggers).
    log: () =>
      logWith(
        (l) => l,
        CORPUS.map((s, i) => {
          const j = JSON.stringify({ level: 'error', msg: 'loading config failed', config: { credential: s.text } });
          return i % 2 === 0 ? j : j.replace(/\//g, '\\/');
        }),
      ),
    forms: (s) => [s.secret],
  },
  'url-encoded': {
    log: () => logWith((l) => l, oneLine.map((s) => `GET /oauth/callback?state=1&credential=${encodeURIComponent(s.text)} 500`)),
    forms: (s) => [s.secret, encodeURIComponent(s.secret)],
  },
};

let repo: string;
let base: string;
const tmp: string[] = [];

beforeAll(() => {
  // Under `npm test` the build ran just before vitest; building again would race with files loading dist/.
  if (process.env.npm_lifecycle_event !== 'test') execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
  ({ repo, base } = layOutCase(CASE));
  tmp.push(repo);
}, 180_000);

afterAll(() => {
  for (const d of tmp) rmSync(d, { recursive: true, force: true });
});

/** The built CLI, asynchronously: exit code and both streams. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 2 ** 20 }, (e, stdout, stderr) => {
      done({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Every spelling of an output a reader could see: as written, without ANSI/`\r`, URL-decoded. */
function readings(text: string): string[] {
  const plain = stripAnsi(text).replace(/\r/g, '');
  let decoded = plain;
  try {
    decoded = decodeURIComponent(plain);
  } catch {
    decoded = plain.replace(/%[0-9A-Fa-f]{2}/g, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
  }
  return [text, plain, decoded, plain.replace(/\\\//g, '/')];
}

/** A secret has leaked when it, or the middle half of it, is in any reading. */
function leaks(outputs: Map<string, string>, forms: string[]): string[] {
  const found: string[] = [];
  for (const [name, text] of outputs) {
    const rs = readings(text);
    for (const f of forms) {
      const core = f.length >= 16 ? f.slice(Math.floor(f.length / 4), Math.ceil((f.length * 3) / 4)) : f;
      if (rs.some((r) => r.includes(f) || r.includes(core))) found.push(name);
    }
  }
  return found;
}

describe(`secret corpus through the CLI (seed ${SEED}: REDLINE_CORPUS_SEED=${SEED} replays it)`, () => {
  it('has at least 60 providers', () => {
    expect(new Set(CORPUS.map((s) => s.provider)).size).toBeGreaterThanOrEqual(60);
  });

  for (const placement of Object.keys(PLACEMENTS) as Placement[]) {
    it(`${placement}: no secret reaches any output or artifact`, async () => {
      const { log, forms } = PLACEMENTS[placement];
      const work = mkdtempSync(join(tmpdir(), 'redline-corpus-'));
      tmp.push(work);
      const logFile = join(work, 'log.txt');
      writeFileSync(logFile, log());
      const outputs = new Map<string, string>();
      // The four formats run side by side (each is mostly waiting on git and ripgrep).
      const runs = await Promise.all(
        FORMATS.map(async (format) => {
          const dir = join(work, `artifacts-${format}`);
          const r = await run(['diagnose', '--log', logFile, '--repo', repo, '--base', base, '--format', format, '--artifacts', dir]);
          return { format, dir, ...r };
        }),
      );
      for (const { format, dir, code, stdout, stderr } of runs) {
        expect(code, stderr).toBe(0);
        // The secrets are in the evidence: the pin is still found through them.
        expect(stdout).toContain('src/receipt.ts');
        outputs.set(`${format}: stdout`, stdout);
        outputs.set(`${format}: stderr`, stderr);
        for (const f of filesUnder(dir)) outputs.set(`${format}: ${f.slice(dir.length + 1)}`, readFileSync(f, 'utf8'));
      }
      expect([...outputs.keys()].filter((k) => k.includes('raw.log'))).not.toHaveLength(0);
      const leaked = CORPUS.filter((s) => placement !== 'alone' && placement !== 'json' ? !s.multiline : true)
        .map((s) => ({ provider: s.provider, where: leaks(outputs, forms(s)) }))
        .filter((x) => x.where.length > 0)
        .map((x) => `${x.provider} in ${x.where.join(', ')}`);
      expect(leaked, `seed ${SEED}`).toEqual([]);
      if (placement === 'alone') {
        // Placeholders and hashes printed on the failing line stay readable in the logs we keep.
        for (const format of FORMATS) {
          const raw = outputs.get(`${format}: raw.log`)!;
          const missing = KEEP.filter((k) => !raw.includes(k));
          expect(missing, `${format} raw.log`).toEqual([]);
        }
      }
    }, 300_000);
  }
});
