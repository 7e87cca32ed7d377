import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';

/**
 * A reporter's `::error file=…::message` annotation restating a failure the step prints in full is not
 * quoted first (fixtures/wild/rec-gha-vitest-redline-clean: vitest 4's github reporter, recorded here).
 */
const wild = (id: string) => new URL(`../../fixtures/wild/${id}/log.txt`, import.meta.url).pathname;
const all = (id: string, re: RegExp): number[] =>
  readFileSync(wild(id), 'utf8')
    .split('\n')
    .flatMap((l, i) => (re.test(l) ? [i + 1] : []));

describe('annotations that restate a printed failure', () => {
  it("vitest's `::error file=…` lines give way to its own FAIL blocks", async () => {
    const id = 'rec-gha-vitest-redline-clean';
    const d = await diagnose({ log: wild(id) });
    const lines = d.evidence.map((e) => e.line);
    const annotations = all(id, /Z ::error file=/);
    expect(annotations).toHaveLength(2);
    expect(lines.filter((n) => annotations.includes(n))).toEqual([]);
    const fails = all(id, /Z +FAIL +test\/log\/clean\.test\.ts > /);
    expect(fails).toHaveLength(2);
    expect(lines).toContain(fails[0]);
    expect(lines[0]).toBeLessThanOrEqual(fails[0]!);
  });
});
