import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { layOutCase } from '../../scripts/lay-out-case.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { testedStem } from '../../src/locate/tested-code.js';

const CASES = new URL('../../fixtures/logs/', import.meta.url).pathname;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A recorded golden case diagnosed without its diff (no --base): only the log and the checkout. */
async function noDiff(name: string) {
  const { repo } = layOutCase(join(CASES, name));
  dirs.push(repo);
  return diagnoseWithTrace({ log: join(CASES, name, 'log.txt'), repo });
}

describe('testedStem', () => {
  it('reduces a test file to the name of what it tests', () => {
    expect(testedStem('src/test/java/com/acme/text/SlugsTest.java')).toBe('slugs');
    expect(testedStem('tests/test_orders.py')).toBe('orders');
    expect(testedStem('test/orders.test.js')).toBe('orders');
    expect(testedStem('slug/slug_test.go')).toBe('slug');
    expect(testedStem('spec/importer_spec.rb')).toBe('importer');
    expect(testedStem('test/recon_lib_SUITE.erl')).toBe('reconlib');
  });
});

describe('the source a failing test exercises, without a diff', () => {
  it('a failed assertion (go test: got/want) offers the function the failing line calls as the first lead, just below the test line', async () => {
    const { diagnosis, trace } = await noDiff('go-test-assertion');
    expect(diagnosis.findings[0]!.file).toBe('slug/slug_test.go');
    expect(diagnosis.findings[1]!.file).toBe('slug/slug.go');
    const c = trace.candidates.find((x) => x.file === 'slug/slug.go')!;
    expect(c.cause).toBe('definition');
    expect(c.notes).toContain('an assertion failed (not an error the test raised)');
  }, 60_000);

  it('a language with no grammar here (ExUnit) still reaches lib/slug.ex by the test file\'s name and the failing line', async () => {
    const { diagnosis } = await noDiff('exunit-slug-truncate-boundary');
    expect(diagnosis.findings.slice(0, 3).map((f) => f.file)).toContain('lib/slug.ex');
  }, 60_000);

  // The KeyError is raised in inventory/store.py:16, under the test's call (pytest's traceback runs from
  // tests/test_orders.py:17 down to that entry): that frame is the pin, and no tested-code lead goes above it.
  it('an error raised in the code the test called keeps that frame first; the tested-code leads stay below', async () => {
    const { diagnosis, trace } = await noDiff('pytest-keyerror-in-source');
    expect(`${diagnosis.findings[0]!.file}:${diagnosis.findings[0]!.line}`).toBe('inventory/store.py:16');
    const top = trace.candidates[0]!;
    expect(trace.candidates.filter((x) => x.cause === 'definition').every((x) => x.score < top.score)).toBe(true);
  }, 60_000);
});
