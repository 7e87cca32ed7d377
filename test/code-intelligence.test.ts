import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
// @ts-expect-error plain ESM helper shared with the benchmark
import { layOutCase } from '../scripts/lay-out-case.mjs';
import { runCli } from '../src/doors/cli.js';
import { diagnose } from '../src/diagnose.js';

/** The code-intelligence layer end to end: `redline map`, call chains as evidence, enclosing symbols. */
const CASES = new URL('../fixtures/logs/', import.meta.url).pathname;
const laid: string[] = [];
afterAll(() => laid.forEach((d) => rmSync(d, { recursive: true, force: true })));

function caseRepo(name: string): { repo: string; base: string } {
  const r = layOutCase(join(CASES, name));
  laid.push(r.repo);
  return r;
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await runCli(args, { stdout, stderr, version: 'test' });
  return { code, out, err };
}

describe('redline map', () => {
  it('prints signatures grouped by file, within the token budget, centred on the focus', async () => {
    const { repo } = caseRepo('jest-graph-invoice-volume-tier');
    const r = await cli(['map', '--repo', repo, '--focus', 'test/invoice.test.js', '--tokens', '300']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^src\/pricing\/tiers\.js:$/m);
    expect(r.out).toMatch(/│\s+\d+: function tierFor\(qty\)/);
    expect(r.out).not.toMatch(/return TIERS/); // signatures only, never bodies
    const tokens = Number(/in (\d+) tokens/.exec(r.err)?.[1]);
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBeLessThanOrEqual(300);
  });

  it('cuts to a tiny budget and says what it left out', async () => {
    const { repo } = caseRepo('jest-graph-invoice-volume-tier');
    const r = await cli(['map', '--repo', repo, '--tokens', '30']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/more definitions not shown|nothing fits/);
  });

  it('refuses bad arguments with exit 2', async () => {
    expect((await cli(['map'])).code).toBe(2);
    expect((await cli(['map', '--repo', '/nonexistent/dir'])).code).toBe(2);
    const { repo } = caseRepo('tsc-return-type-mismatch');
    expect((await cli(['map', '--repo', repo, '--tokens', 'lots'])).code).toBe(2);
  });
});

describe('call-graph blame', () => {
  it('explains the pin with the chain from the failing test to the changed line', async () => {
    const { repo, base } = caseRepo('jest-graph-invoice-volume-tier');
    const d = await diagnose({ log: join(CASES, 'jest-graph-invoice-volume-tier/log.txt'), repo, base });
    const top = d.findings[0]!;
    expect(`${top.file}:${top.line}`).toBe('src/pricing/tiers.js:11');
    expect(top.symbol).toBe('tierFor()');
    expect(top.evidence.map((e) => e.text)).toContainEqual(expect.stringMatching(/`invoiceTotal` → `lineAmount` → `tierFor` → changed line 11/));
    // The assertion stays among the findings.
    expect(d.findings.some((f) => f.file === 'test/invoice.test.js')).toBe(true);
  });

  it('without the graph the same case blames a renamed local instead', async () => {
    const { repo, base } = caseRepo('jest-graph-invoice-volume-tier');
    const d = await diagnose({ log: join(CASES, 'jest-graph-invoice-volume-tier/log.txt'), repo, base, graph: false });
    // Not a claim that it is wrong without the graph in general: only that the graph is what finds this one.
    expect(d.findings[0]?.evidence.map((e) => e.text).some((t) => t.includes('→ `tierFor`'))).toBe(false);
  });

  it('names the enclosing symbol of a pin', async () => {
    const { repo, base } = caseRepo('jest-typeerror-in-source');
    const d = await diagnose({ log: join(CASES, 'jest-typeerror-in-source/log.txt'), repo, base });
    expect(d.findings[0]?.symbol).toBe('sectionOf()');
  });

  it('without --base lists what the failing test exercises below the assertion, as leads', async () => {
    const { repo } = caseRepo('go-graph-report-percentile');
    const d = await diagnose({ log: join(CASES, 'go-graph-report-percentile/log.txt'), repo });
    expect(d.findings[0]?.cause).toBe('test');
    const leads = d.findings.filter((f) => f.cause === 'definition');
    expect(leads.length).toBeGreaterThan(0);
    expect(leads[0]!.file).toBe('report/report.go');
    expect(leads[0]!.message).toMatch(/the failing test report\/report_test\.go:\d+ exercises `\w+`/);
  });
});
