import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';

/**
 * A stack trace a warning printed is something the step went on past: the failure beside it is quoted
 * first (real logs of the development corpus, fixtures/wild/, sources in each folder's label.json).
 */
const wild = (id: string) => new URL(`../../fixtures/wild/${id}/log.txt`, import.meta.url).pathname;
const first = (id: string, re: RegExp): number => readFileSync(wild(id), 'utf8').split('\n').findIndex((l) => re.test(l)) + 1;

describe('a warning\'s trace gives way to the failure', () => {
  it("moment's `Deprecation warning:` with its bare `Error: ` and frames, before mocha's failure (habitica)", async () => {
    const id = 'gha-javascript-mocha-2536167204';
    const d = await diagnose({ log: wild(id) });
    const lines = d.evidence.map((e) => e.line);
    const warnAt = first(id, /Deprecation warning: value provided is not in a recognized RFC2822/);
    expect(warnAt).toBeGreaterThan(0);
    expect(lines.filter((n) => n > warnAt && n < warnAt + 15)).toEqual([]);
    expect(d.evidence[0]!.text).toMatch(/^\s*1 failing$/);
    expect(lines).toContain(first(id, / 1\) shared\.ops\.scoreTask$/));
  });

  it("jest's `console.warn` entry with its code frame and call site, before a FAIL block (svgo)", async () => {
    const id = 'gha-javascript-jest-2320994299';
    const d = await diagnose({ log: wild(id) });
    expect(d.evidence[0]!.line).toBeGreaterThanOrEqual(first(id, /FAIL .*cli\.test\.js/));
    expect(d.evidence.some((e) => /_index\.test\.js.*:38:28/.test(e.text))).toBe(false);
  });

  it("a logger's `WARN … Failed to export spans` with the exception handed to it, before Gradle's failed test (opentelemetry-java)", async () => {
    const id = 'gha-gradle-2307899709';
    const d = await diagnose({ log: wild(id) });
    const warnAt = first(id, /WARN io\.opentelemetry\.exporter\.zipkin\.ZipkinSpanExporter - Failed to export spans/);
    expect(warnAt).toBeGreaterThan(0);
    expect(d.evidence.map((e) => e.line).filter((n) => n >= warnAt && n < warnAt + 6)).toEqual([]);
    expect(d.evidence[0]!.line).toBe(first(id, /RetryInterceptorTest > connectTimeout\(\) FAILED/));
  });
});
