/**
 * secretlint marks a performance entry per rule per lintSource call; its profiler kept them all and
 * scanned them on every new one (quadratic in a long-running App or worker). The redactor now drives
 * secretlint's rules itself (safety/secretlint-detector.ts), without lintSource: many redactions later,
 * no secretlint mark is in Node's timeline, and secretlint's rules still detect.
 */
import { performance } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { redactSecretsDeep } from '../../src/safety/redact.js';

const TEXT = 'src/receipt.ts(15,62): error TS2554: Expected 2 arguments, but got 1.\n'.repeat(20);
const yieldToObservers = (): Promise<void> => new Promise((r) => setImmediate(r));

it('redacting leaves no secretlint profiler marks behind (one profiler instance, turned off)', async () => {
  for (let i = 0; i < 200; i++) {
    await redactSecretsDeep(TEXT);
    await yieldToObservers(); // PerformanceObserver callbacks run from the event loop
  }
  const marks = performance.getEntriesByType('mark').filter((m) => /^@core>/.test(m.name));
  expect(marks).toHaveLength(0);
  // Still a detector: secretlint's own rules keep working with the profiler off.
  const key = ['AKIA', 'QYLPMN5HHHFPZAM2'].join('');
  expect((await redactSecretsDeep(`aws_access_key_id = ${key}`)).text).not.toContain(key);
});
