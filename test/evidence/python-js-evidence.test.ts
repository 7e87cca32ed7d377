import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { errorScore } from '../../src/evidence/index.js';

/** Evidence rules for pytest, vitest and retried steps, each on the real log that motivated it (fixtures/wild/). */
const wild = (id: string) => new URL(`../../fixtures/wild/${id}/log.txt`, import.meta.url).pathname;
const linesOf = (id: string) => readFileSync(wild(id), 'utf8').split('\n');
const all = (id: string, re: RegExp): number[] => linesOf(id).flatMap((l, i) => (re.test(l) ? [i + 1] : []));

describe("pytest's short summary of skips", () => {
  it('is not a failure, whatever reason the skip gives (numpy, gha-python-2516607438)', async () => {
    const id = 'gha-python-2516607438';
    const skips = all(id, /Z SKIPPED \[\d+\] /);
    expect(skips.length).toBeGreaterThan(10);
    const d = await diagnose({ log: wild(id) });
    const ev = d.evidence.map((e) => e.line);
    expect(ev.filter((n) => skips.includes(n))).toEqual([]);
    expect(ev).toContain(all(id, /E {11}ValueError: Invalid kind: auto/)[0]);
    // The skip's own words would say failure; the skip says it was meant.
    const text = linesOf(id)[skips[0]! - 1]!.replace(/^\S+Z /, '');
    expect(errorScore(text)).toBeLessThan(0.5);
    expect(errorScore('tests/test_x.py::test_gpu SKIPPED (could not find a GPU)')).toBeLessThan(0.5);
  });
});

describe("pytest's long traceback chained by 'During handling of the above exception'", () => {
  it('quotes the cause and leaves out the tracebacks raised while handling it (PyPDF2, gha-python-2446151667)', async () => {
    const id = 'gha-python-2446151667';
    const cause = all(id, /E {7}KeyError: '\/Fm17'/)[0]!;
    const handler = all(id, /E {19}PyPDF2\.errors\.PdfReadWarning: {2}impossible to decode XFormObject \/Im11/)[0]!;
    expect(cause).toBeGreaterThan(0);
    expect(handler).toBeGreaterThan(cause);
    const d = await diagnose({ log: wild(id) });
    const ev = d.evidence.map((e) => e.line);
    expect(ev).toContain(cause);
    expect(ev).not.toContain(handler);
  });
});

describe('a step that retries its command (`cmd || cmd || cmd`)', () => {
  it('is quoted by its last attempt, the one that failed the step (spyder, gha-python-2512083654)', async () => {
    const id = 'gha-python-2512083654';
    const crashes = all(id, /Fatal Python error: Segmentation fault/);
    expect(crashes.length).toBeGreaterThan(2);
    const d = await diagnose({ log: wild(id) });
    const ev = d.evidence.map((e) => e.line);
    expect(ev[0]).toBe(crashes[crashes.length - 1]);
    expect(ev.every((n) => n >= crashes[crashes.length - 1]!)).toBe(true);
  });
});

describe("vitest's failure blocks", () => {
  it("leave out the `⎯⎯ Failed Tests N ⎯⎯` rule and keep the test's `❯ file:line` with its code frame (rec-gha-vitest-redline-clean)", async () => {
    const id = 'rec-gha-vitest-redline-clean';
    const rule = all(id, /⎯ Failed Tests 2 ⎯/)[0]!;
    const [pointer, second] = all(id, /Z  ❯ test\/log\/clean\.test\.ts:\d+:\d+/);
    const d = await diagnose({ log: wild(id) });
    const ev = d.evidence.map((e) => e.line);
    expect(ev).not.toContain(rule);
    expect(ev[0]).toBe(all(id, / FAIL {2}test\/log\/clean\.test\.ts > cleanLine: Actions timestamps/)[0]);
    expect(ev).toContain(pointer);
    // The second test's pointer and code frame are its block's, not a block of their own.
    const title2 = all(id, / FAIL {2}test\/log\/clean\.test\.ts > cleanLine: control characters/)[0]!;
    expect(ev.includes(second!)).toBe(ev.includes(title2));
  });
});

describe('a summary that names every failure', () => {
  it('stands for the later failures: the first in full and the list (BentoML, gha-python-2360239904)', async () => {
    const id = 'gha-python-2360239904';
    const later = all(id, /E {7}socket\.gaierror: \[Errno -2\] Name or service not known/)[0]!;
    const first = all(id, /E {7}AttributeError: module responses has no attribute _is_string/)[0]!;
    const listed = all(id, /Z FAILED tests\/deployment\/sagemaker\/test_sagemaker\.py::test_sagemaker_apply_fail_not_local_repo$/)[0]!;
    expect(later).toBeGreaterThan(first);
    const d = await diagnose({ log: wild(id) });
    const ev = d.evidence.map((e) => e.line);
    expect(ev).toContain(first);
    expect(ev).toContain(listed);
    expect(ev).not.toContain(later);
  });
});

describe("a formatter's check (black --check)", () => {
  it('quotes the files it would reformat and its count line (rec-black-check-shlex)', async () => {
    const id = 'rec-black-check-shlex';
    const d = await diagnose({ log: wild(id) });
    const ev = d.evidence.map((e) => e.line);
    expect(ev).toEqual(expect.arrayContaining([...all(id, /^would reformat /), ...all(id, /^2 files would be reformatted\.$/)]));
  });

  it("takes the unified diff's file headers into the diff's block (rec-black-check-bisect)", async () => {
    const id = 'rec-black-check-bisect';
    const d = await diagnose({ log: wild(id) });
    const ev = d.evidence.map((e) => e.line);
    expect(ev.slice(0, 3)).toEqual([1, 2, 3]);
    expect(ev).toContain(all(id, /^1 file would be reformatted\.$/)[0]);
  });
});

describe("npm's dump of the error it caught", () => {
  it("trims the runtime frames under its own prefix as any trace's plumbing (rec-gha-npm-registry-refused)", async () => {
    const id = 'rec-gha-npm-registry-refused';
    const d = await diagnose({ log: wild(id) });
    const ev = d.evidence.map((e) => e.line);
    const frames = all(id, /Z npm error {5}at /);
    expect(frames.length).toBe(6);
    // The first frames say where it broke; node's own (`node:events`, `node:_http_client`) below them are plumbing.
    expect(ev.filter((n) => frames.includes(n)).length).toBeLessThanOrEqual(3);
    expect(ev).toContain(all(id, /npm error FetchError: request to http:\/\/127\.0\.0\.1:9\/zod failed/)[0]);
    expect(ev).toContain(all(id, /npm error If you are behind a proxy/)[0]);
  });
});
