import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { diagnose } from '../src/diagnose.js';
import { cleanText } from '../src/log/clean.js';

/**
 * 77 real GitHub Actions job logs from public projects (fixtures/real-logs, BugSwarm, BSD-3). They carry
 * no file:line labels; what every one of them must get right: the failing step is the one holding the
 * runner's last error, the evidence lines are real lines of the log quoted exactly, infra abstains.
 */
const DIR = new URL('../fixtures/real-logs/', import.meta.url);
const logs = readdirSync(DIR).filter((f) => f.endsWith('.log'));

describe('real GitHub Actions logs', () => {
  it('are all here', () => {
    expect(logs.length).toBeGreaterThanOrEqual(77);
  });

  for (const name of logs) {
    it(name, async () => {
      const path = new URL(name, DIR).pathname;
      const text = readFileSync(path, 'utf8');
      const cleaned = cleanText(text);
      const d = await diagnose({ log: path });
      expect(d.version).toBe(2);
      expect(d.summary.length).toBeGreaterThan(10);
      // The failing step holds the runner's last error before the post-job cleanup.
      const cleanup = cleaned.find((l) => l.text === 'Post job cleanup.')?.n ?? Infinity;
      const errors = cleaned.filter((l) => l.text.startsWith('##[error]') && l.n < cleanup);
      const last = errors[errors.length - 1];
      if (last) {
        expect(d.failingStep, 'a log with a runner error has a failing step').not.toBeNull();
        expect(d.failingStep!.startLine).toBeLessThanOrEqual(last.n);
        expect(d.failingStep!.endLine).toBeGreaterThanOrEqual(last.n);
      }
      // Evidence: a few real lines, quoted exactly as cleaned, never the runner's exit-code line.
      expect(d.evidence.length).toBeGreaterThan(0);
      expect(d.evidence.length).toBeLessThanOrEqual(12);
      for (const e of d.evidence) {
        expect(cleaned[e.line - 1]?.text).toBe(e.text);
        expect(e.text).not.toMatch(/^##\[error\]Process completed with exit code/);
      }
      if (d.category === 'infra') expect(d.status).toBe('no-location');
      for (const f of d.findings) {
        expect(f.line).toBeGreaterThan(0);
        expect(f.file).not.toMatch(/^\/|\\/);
      }
    });
  }

  it('calls the job the runner terminated an infra failure and abstains', async () => {
    const d = await diagnose({ log: new URL('terminated-2026328035.log', DIR).pathname });
    expect(d.category).toBe('infra');
    expect(d.status).toBe('no-location');
    expect(d.evidence.some((e) => /operation was canceled|shutdown signal/i.test(e.text))).toBe(true);
  });

  it('reads a failed Maven checkstyle goal as lint and quotes the goal line', async () => {
    const d = await diagnose({ log: new URL('maven-1749803252-orig.log', DIR).pathname });
    expect(d.category).toBe('lint');
    expect(d.evidence.map((e) => e.text)).toContainEqual(expect.stringContaining('maven-checkstyle-plugin'));
  });
});
