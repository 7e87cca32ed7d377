import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { diagnose } from '../../src/diagnose.js';
import { PassingLogMismatchError } from '../../src/evidence/index.js';

/**
 * The diff against a passing log of the same job (issue 15) on real failed/passed pairs of the same jobs
 * (fixtures/history-pairs: BugSwarm's pairs), through `diagnose` and the built CLI.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAIRS = join(ROOT, 'fixtures/history-pairs');
const pair = (name: string) => ({ failed: join(PAIRS, name, 'failed.log'), passed: join(PAIRS, name, 'passed.log'), labels: JSON.parse(readFileSync(join(PAIRS, name, 'labels.json'), 'utf8')) as { errorLines: number[] } });

describe('diagnose --passing-log', () => {
  it('a checkstyle error no matcher knows becomes the first evidence line; lines the passing run printed are dropped', async () => {
    const p = pair('spectator-8295325184');
    const without = await diagnose({ log: p.failed });
    const withIt = await diagnose({ log: p.failed, passingLog: { source: p.passed } });
    // The evidence stage finds it without the passing log too; with it, it comes first.
    expect(without.evidence.map((e) => e.line)).toContain(1299);
    expect(withIt.evidence[0]!.line).toBe(1299);
    expect(withIt.history).toMatchObject({ status: 'new', passingLog: true, alignedBy: 'step' });
    expect(withIt.history!.newLines).toBeGreaterThan(0);
    expect(withIt.history!.seenLines).toBeGreaterThan(withIt.history!.newLines!);
    expect(withIt.version).toBe(2);
  });

  it('on every pair, the evidence with the passing log holds at least as many labelled lines as without it, and starts at one', async () => {
    for (const name of ['grasscutter-7801445827', 'jbanking-8761138559', 'spectator-8295325184', 'ttl-8267344544', 'quickcarpet-7830074046']) {
      const p = pair(name);
      const labelled = new Set(p.labels.errorLines);
      const hits = (d: Awaited<ReturnType<typeof diagnose>>) => d.evidence.filter((e) => labelled.has(e.line)).length;
      const a = await diagnose({ log: p.failed });
      const b = await diagnose({ log: p.failed, passingLog: { source: p.passed } });
      expect(hits(b), name).toBeGreaterThanOrEqual(hits(a));
      expect(labelled.has(b.evidence[0]!.line), `${name} starts at ${b.evidence[0]!.line}`).toBe(true);
    }
  });

  it('a gzipped passing log is read the same as a plain one', async () => {
    const p = pair('grasscutter-7801445827');
    const dir = mkdtempSync(join(tmpdir(), 'redline-pass-'));
    try {
      const gz = join(dir, 'passed.log.gz');
      writeFileSync(gz, gzipSync(readFileSync(p.passed)));
      const a = await diagnose({ log: p.failed, passingLog: { source: p.passed } });
      const b = await diagnose({ log: p.failed, passingLog: { source: gz } });
      expect(b.history).toEqual(a.history);
      expect(b.evidence).toEqual(a.evidence);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a passing log of another job is refused: the workflows the runner names differ', async () => {
    await expect(diagnose({ log: pair('grasscutter-7801445827').failed, passingLog: { source: pair('jbanking-8761138559').passed } })).rejects.toBeInstanceOf(PassingLogMismatchError);
  });

  it('the names the door knows must match too', async () => {
    const p = pair('grasscutter-7801445827');
    await expect(diagnose({ log: p.failed, jobName: 'Build / build', passingLog: { source: p.passed, jobName: 'Build / lint' } })).rejects.toBeInstanceOf(PassingLogMismatchError);
    const ok = await diagnose({ log: p.failed, jobName: 'Build / build', passingLog: { source: p.passed, jobName: 'Build / build' } });
    expect(ok.history?.status).toBe('new');
  });

  it('the failing log against itself: nothing is new, and only the exit line of the runner is quoted', async () => {
    const p = pair('jbanking-8761138559');
    const d = await diagnose({ log: p.failed, passingLog: { source: p.failed } });
    expect(d.history).toMatchObject({ newLines: 0, alignedBy: 'step' });
    // Only the runner's own "Process completed with exit code 1." is left to say that the step failed.
    expect(d.evidence.map((e) => e.text)).toEqual(['##[error]Process completed with exit code 1.']);
  });
});

describe('redline diagnose --passing-log (the built CLI)', () => {
  const BIN = join(ROOT, 'dist/bin/redline.js');
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, 'diagnose', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

  it('prints history in the JSON contract (version 2)', () => {
    const p = pair('ttl-8267344544');
    const r = run(['--log', p.failed, '--passing-log', p.passed, '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.version).toBe(2);
    expect(d.history).toMatchObject({ status: 'new', passingLog: true, alignedBy: 'step' });
    expect(d.history.newLines).toBeGreaterThan(0);
  });

  it('refuses a passing log of another job with exit code 2 and one line', () => {
    const r = run(['--log', pair('spectator-8295325184').failed, '--passing-log', pair('ttl-8267344544').passed]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^redline: the passing log is not of the same job .*\n$/);
  });

  it('a missing passing log is a usage error', () => {
    const r = run(['--log', pair('spectator-8295325184').failed, '--passing-log', '/nonexistent/passed.log']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--passing-log/);
  });
});
