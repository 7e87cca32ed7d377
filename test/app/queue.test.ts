import { describe, expect, it } from 'vitest';
import { InProcessQueue } from '../../src/queue/in-process.js';

const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('InProcessQueue', () => {
  it('runs at most `concurrency` jobs at once', async () => {
    const q = new InProcessQueue({ concurrency: 2 });
    let running = 0;
    let peak = 0;
    for (let i = 0; i < 6; i++) {
      q.add({ id: `d${i}`, key: `pr${i}`, run: async () => { running++; peak = Math.max(peak, running); await tick(); running--; } });
    }
    expect(q.depth).toBe(6);
    await q.idle();
    expect(peak).toBe(2);
    expect(q.depth).toBe(0);
  });

  it('runs jobs of one key one at a time, in arrival order, while other keys proceed', async () => {
    const q = new InProcessQueue({ concurrency: 4 });
    const log: string[] = [];
    const job = (id: string, key: string) => ({ id, key, run: async () => { log.push(`start ${id}`); await tick(); log.push(`end ${id}`); } });
    q.add(job('a1', 'A'));
    q.add(job('a2', 'A'));
    q.add(job('b1', 'B'));
    await q.idle();
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });

  it('drops a delivery id it has seen (GitHub redelivers with the same GUID)', async () => {
    const q = new InProcessQueue();
    let runs = 0;
    const job = { id: 'same-guid', key: 'k', run: async () => { runs++; } };
    expect(q.add(job)).toBe(true);
    await q.idle();
    expect(q.add(job)).toBe(false);
    await q.idle();
    expect(runs).toBe(1);
  });

  it('forgets the oldest ids past `rememberIds`, and reports errors without stopping', async () => {
    const errors: unknown[] = [];
    const q = new InProcessQueue({ rememberIds: 2, onError: (e) => errors.push(e) });
    const ok = async (): Promise<void> => {};
    q.add({ id: '1', key: 'k', run: async () => { throw new Error('boom'); } });
    q.add({ id: '2', key: 'k', run: ok });
    q.add({ id: '3', key: 'k', run: ok });
    await q.idle();
    expect(errors).toHaveLength(1);
    expect(q.add({ id: '1', key: 'k', run: ok })).toBe(true); // forgotten
    expect(q.add({ id: '3', key: 'k', run: ok })).toBe(false); // still remembered
    await q.idle();
  });
});
