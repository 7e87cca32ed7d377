import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { cleanText } from '../../src/log/clean.js';
import { packageManagerMatcher } from '../../src/extract/matchers/package-managers.js';

/**
 * Which of several blocks is quoted, on real logs of the development corpus (fixtures/wild/: real CI logs
 * of public projects and real toolchains run here): the first of N alike failures, both of two, an npm
 * failure the step survived left out, a block that ends at Maven's `[INFO] ` blank, a script's handled
 * condition that opens no block.
 */
const wild = (id: string) => new URL(`../../fixtures/wild/${id}/log.txt`, import.meta.url).pathname;
const all = (id: string, re: RegExp): number[] =>
  readFileSync(wild(id), 'utf8')
    .split('\n')
    .flatMap((l, i) => (re.test(l) ? [i + 1] : []));

describe('alike failures: the first stands for them', () => {
  it('31 mocha tests failing with one error: the first is quoted with the count, not the sixth behind the pin', async () => {
    const id = 'gha-javascript-mocha-2446999494';
    const d = await diagnose({ log: wild(id) });
    const lines = d.evidence.map((e) => e.line);
    const errs = all(id, /\dZ +Error: Failed to generate def for node\.lib$/);
    expect(errs.length).toBeGreaterThan(20);
    expect(lines).toContain(errs[0]);
    expect(lines.filter((n) => errs.includes(n))).toHaveLength(1);
    expect(d.evidence[0]!.text).toMatch(/^\s*31 failing$/);
  });

  it('13 pytest collection errors with one cause: the first section, which is no summary', async () => {
    const id = 'gha-python-2062223369';
    const d = await diagnose({ log: wild(id) });
    const titles = d.evidence.filter((e) => /^_+ ERROR collecting .* _+$/.test(e.text));
    expect(titles.map((e) => e.text)).toEqual([expect.stringContaining('test/unittests/audio/test_service.py')]);
    const block = d.evidenceBlocks.find((b) => b.start <= titles[0]!.line && titles[0]!.line <= b.end);
    expect(block?.kind).not.toBe('summary');
    expect(d.evidence.filter((e) => /ModuleNotFoundError: No module named 'importlib\.metadata'/.test(e.text))).toHaveLength(1);
  });

  it('a list of compiler errors keeps its different errors and the first two of a repeated one (gcc, recorded here)', async () => {
    const id = 'rec-gha-gcc-missing-include';
    const d = await diagnose({ log: wild(id) });
    const lines = d.evidence.map((e) => e.line);
    const errs = all(id, /zpipe\.c:\d+:\d+: error: unknown type name ‘FILE’/);
    expect(errs).toHaveLength(4);
    expect(lines[0]).toBe(errs[0]);
    expect(lines).toContain(errs[1]);
    expect(lines).not.toContain(errs[2]);
    expect(lines).toContain(all(id, /error: ‘stderr’ undeclared/)[0]);
  });

  it('two tests failing with one error are both quoted (ExUnit, recorded here)', async () => {
    const id = 'rec-gha-exunit-raise';
    const d = await diagnose({ log: wild(id) });
    expect(d.evidence.filter((e) => /\*\* \(ArgumentError\) no world configured/.test(e.text))).toHaveLength(2);
  });
});

describe('what the step went on past', () => {
  it('an npm ERESOLVE followed by an install that went through is not the cause (real docker-compose job)', async () => {
    const id = 'gha-javascript-jest-2547772887';
    const d = await diagnose({ log: wild(id) });
    expect(d.evidence.some((e) => /ERESOLVE/.test(e.text))).toBe(false);
    expect(d.evidence[0]!.text).toMatch(/FAIL \.\/test-project\.test\.js$/);
  });

  it('the npm matcher demotes that ERESOLVE to a warning, and keeps one no install follows', () => {
    const lines = cleanText(readFileSync(wild('gha-javascript-jest-2547772887'), 'utf8'));
    const eresolve = packageManagerMatcher.extract(lines).find((s) => s.message.startsWith('ERESOLVE'));
    expect(eresolve).toMatchObject({ severity: 'warning' });
    expect(eresolve!.weight).toBeLessThan(0.5);
    const added = lines.findIndex((l) => /added \d+ packages/.test(l.text));
    const before = packageManagerMatcher.extract(lines.slice(0, added)).find((s) => s.message.startsWith('ERESOLVE'));
    expect(before).toMatchObject({ severity: 'error', weight: 0.8 });
  });

  it('a script saying what it does if a file is missing opens no block (real GitLab deploy job)', async () => {
    const id = 'gitlab-greedys-api-deploy-swarm';
    const d = await diagnose({ log: wild(id) });
    const quoted = d.evidence.map((e) => e.text);
    expect(quoted).not.toContain("Creating acme.json if it doesn't exist...");
    expect(quoted[0]).toMatch(/^Error response from daemon: This node is not a swarm manager/);
  });
});

describe('where a block ends', () => {
  it("Maven's `[INFO] ` ends the failures list like a blank line: the reactor summary under it is not quoted", async () => {
    const id = 'gha-maven-16621473969';
    const d = await diagnose({ log: wild(id) });
    const quoted = d.evidence.map((e) => e.text);
    expect(quoted).toContain('[ERROR] Failures:');
    expect(quoted).toContain('[ERROR] Tests run: 1943, Failures: 2, Errors: 0, Skipped: 7');
    expect(quoted.some((t) => /Reactor Summary|SUCCESS \[/.test(t))).toBe(false);
  });
});
