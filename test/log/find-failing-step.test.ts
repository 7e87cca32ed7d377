import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { cleanText } from '../../src/log/clean.js';
import { findFailingStep } from '../../src/log/find-failing-step.js';
import { scanLog } from '../../src/log/scan-log.js';
import { openLog } from '../../src/log/open-log.js';

/** findFailingStep on real GitHub Actions job logs (BugSwarm, BSD-3) and recorded runner-format logs. */
const REAL = new URL('../../fixtures/real-logs/', import.meta.url);
const LOGS = new URL('../../fixtures/logs/', import.meta.url);
const FORMATS = new URL('../../fixtures/ci-formats/', import.meta.url);

function layoutOf(text: string) {
  const lines = cleanText(text);
  return { lines, layout: findFailingStep(lines, [], lines.length) };
}
const realText = (name: string) => readFileSync(new URL(name, REAL), 'utf8');

describe('findFailingStep: every real Actions log', () => {
  const names = readdirSync(REAL).filter((f) => f.endsWith('.log'));
  for (const name of names) {
    it(name, () => {
      const { lines, layout } = layoutOf(realText(name));
      const cleanup = lines.find((l) => l.text === 'Post job cleanup.')?.n ?? Infinity;
      const errors = lines.filter((l) => l.text.startsWith('##[error]') && l.n < cleanup);
      if (!lines.some((l) => /^##\[(group\]Run |error\])/.test(l.text))) {
        expect(layout.format).toBe('plain');
        return;
      }
      expect(layout.format).toBe('github-actions');
      // Steps come in order and do not overlap.
      for (let i = 1; i < layout.steps.length; i++) expect(layout.steps[i]!.startLine).toBeGreaterThan(layout.steps[i - 1]!.endLine);
      for (const s of layout.steps) expect(s.endLine).toBeGreaterThanOrEqual(s.startLine);
      const last = errors.at(-1);
      if (!last) {
        expect(layout.failing).toBeNull();
        return;
      }
      // The failing step is the last step with a runner error, and it holds the last error.
      expect(layout.failing).not.toBeNull();
      expect(layout.failing).toBe([...layout.steps].reverse().find((s) => s.errorLines.length > 0));
      expect(layout.failing!.startLine).toBeLessThanOrEqual(last.n);
      expect(layout.failing!.endLine).toBeGreaterThanOrEqual(last.n);
      expect(layout.failing!.errorLines.at(-1)).toBe(last.n);
      if (cleanup !== Infinity) expect(layout.cleanupStart).toBe(cleanup);
    });
  }
});

describe('findFailingStep: specific real logs', () => {
  it('a Python job: the test step with its traceback error and the exit code line', () => {
    const { layout } = layoutOf(realText('python-2468864400-orig.log'));
    expect(layout.failing).toMatchObject({ name: './runtests.py', startLine: 960, endLine: 1053, errorLines: [1051, 1053], exitCode: 1 });
    expect(layout.cleanupStart).toBe(1054);
    expect(layout.steps.map((s) => s.name)).toEqual(['actions/checkout@v3', 'actions/setup-python@v3', 'python -m pip install --upgrade pip', './runtests.py']);
  });

  it('several ##[error] lines in one step (tsc errors as annotations, then the action failing): one step, all errors', () => {
    const { layout } = layoutOf(realText('javascript-jest-2544418976.log'));
    expect(layout.failing!.name).toBe('GabrielBB/xvfb-action@v1');
    expect(layout.failing!.errorLines).toEqual([748, 775, 2884]);
    // "The process '/usr/bin/xvfb-run' failed with exit code 1" is not the runner's exit-code line.
    expect(layout.failing!.exitCode).toBeUndefined();
  });

  it('a job the runner cancelled: "The operation was canceled." inside the running step pins that step', () => {
    const { lines, layout } = layoutOf(realText('terminated-2026328035.log'));
    const cancel = lines.find((l) => l.text === '##[error]The operation was canceled.')!;
    expect(layout.failing!.name).toMatch(/^\.\/mvnw --batch-mode/);
    expect(layout.failing!.startLine).toBe(587);
    expect(layout.failing!.errorLines.at(-1)).toBe(cancel.n);
    expect(layout.failing!.errorLines.length).toBe(13);
  });

  it('a job cancelled before its first step: the error outside any step is a step of its own', () => {
    // Derived from the real cancelled log: its runner preamble, then its cancel line and cleanup.
    const raw = realText('terminated-2026328035.log').split('\n');
    const firstRun = raw.findIndex((l) => l.includes('##[group]Run '));
    const cancel = raw.findIndex((l) => l.includes('##[error]The operation was canceled.'));
    const text = [...raw.slice(0, firstRun), raw[cancel], raw[cancel + 1]].join('\n') + '\n';
    const { layout } = layoutOf(text);
    expect(layout.format).toBe('github-actions');
    expect(layout.failing).toMatchObject({ name: 'job', startLine: firstRun + 1, endLine: firstRun + 1, errorLines: [firstRun + 1] });
    expect(layout.cleanupStart).toBe(firstRun + 2);
  });

  it('an Actions log with steps but no error: no failing step', () => {
    const { layout } = layoutOf(realText('other-8859027590.log'));
    expect(layout.format).toBe('github-actions');
    expect(layout.steps.map((s) => s.name)).toEqual(['make check_headers']);
    expect(layout.failing).toBeNull();
  });

  it('the exit code of a job killed by timeout (137)', () => {
    const { layout } = layoutOf(readFileSync(new URL('timeout-killed-137/log.txt', LOGS), 'utf8'));
    expect(layout.failing!.name).toBe('timeout -s KILL 8 npm run test:integration');
    expect(layout.failing!.exitCode).toBe(137);
  });
});

describe('findFailingStep: continue-on-error (recorded with fixtures/tools/actions-run.mjs)', () => {
  const text = readFileSync(new URL('actions-continue-on-error/log.txt', FORMATS), 'utf8');

  it('a step that failed with continue-on-error is not the cause: the later failure is', () => {
    const { lines, layout } = layoutOf(text);
    const byName = new Map(layout.steps.map((s) => [s.name, s]));
    const check = byName.get('node --check src/lint-me.mjs')!;
    const test = byName.get('node src/test.cjs')!;
    expect(check.errorLines).toHaveLength(1);
    expect(check.exitCode).toBe(1);
    expect(lines.slice(check.startLine - 1, check.endLine).some((l) => l.text.startsWith('SyntaxError:'))).toBe(true);
    expect(layout.failing).toBe(test);
    expect(test.exitCode).toBe(1);
    expect(test.startLine).toBe(check.endLine + 1);
    expect(lines.slice(test.startLine - 1, test.endLine).some((l) => l.text.startsWith('AssertionError'))).toBe(true);
    expect(byName.has('echo unreachable')).toBe(false);
    expect(layout.cleanupStart).toBe(test.endLine + 1);
  });

  it('the same through openLog + scanLog (file on disk) as through cleanText', async () => {
    const scan = await scanLog(openLog(new URL('actions-continue-on-error/log.txt', FORMATS).pathname));
    expect(findFailingStep(scan.lines, scan.sections, scan.totalLines)).toEqual(layoutOf(text).layout);
  });
});

describe('findFailingStep: plain logs (no CI frame)', () => {
  const plain = readdirSync(LOGS).filter((c) => {
    const t = readFileSync(new URL(`${c}/log.txt`, LOGS), 'utf8');
    return !t.includes('##[') && !t.includes('section_start:') && !t.includes('travis_fold:');
  });

  it('there are recorded plain tool logs', () => {
    expect(plain.length).toBeGreaterThan(10);
  });

  for (const c of plain) {
    it(`${c}: format plain, no steps, no failing step`, () => {
      const { layout } = layoutOf(readFileSync(new URL(`${c}/log.txt`, LOGS), 'utf8'));
      expect(layout).toEqual({ format: 'plain', steps: [], failing: null });
    });
  }
});
