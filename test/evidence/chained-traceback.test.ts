import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';

/**
 * Python's chained traceback: the first is the cause, the one raised `During handling of the above
 * exception` is the handler breaking on it (fixtures/wild/gha-python-2496945256, mongo-python-driver).
 */
const wild = (id: string) => new URL(`../../fixtures/wild/${id}/log.txt`, import.meta.url).pathname;
const first = (id: string, re: RegExp): number => readFileSync(wild(id), 'utf8').split('\n').findIndex((l) => re.test(l)) + 1;

describe('a chained traceback', () => {
  it('quotes the first traceback first, not the one raised while handling it', async () => {
    const id = 'gha-python-2496945256';
    const d = await diagnose({ log: wild(id) });
    const cause = first(id, /TypeError: ChangeStream\.__init__\(\) missing 1 required positional argument: 'start_after'/);
    const handler = first(id, /AttributeError: 'TypeError' object has no attribute 'details'/);
    expect(cause).toBeGreaterThan(0);
    expect(handler).toBeGreaterThan(cause);
    const lines = d.evidence.map((e) => e.line);
    expect(lines).toContain(cause);
    expect(lines[0]).toBeLessThan(cause);
    expect(lines[0]).toBeGreaterThan(cause - 15);
  });
});
