import { describe, expect, it } from 'vitest';
import { lineKey, lineTemplate, TemplateCounter } from '../../src/evidence/templates.js';

describe('line templates', () => {
  it('masks what differs between runs, keeps the words', () => {
    const a = lineTemplate('  ✓ packages/core/test/unit/module-17.test.ts > suite 3 > handles case 8812 without errors (12ms)');
    const b = lineTemplate('  ✓ packages/core/test/unit/module-4.test.ts > suite 9 > handles case 1 without errors (7ms)');
    expect(a).toBe(b);
    expect(a).toContain('without errors');
    expect(lineTemplate('2026-11-29T10:15:02.1234567Z done in 1.5s at 4f2a9c81d')).toBe('<ts> done in <dur> at <hex>');
    expect(lineTemplate('id 123e4567-e89b-12d3-a456-426614174000 port 8080')).toBe('id <uuid> port 0');
  });
  it('tells different messages apart', () => {
    expect(lineKey("error TS2322: Type 'string' is not assignable to type 'number'.")).not.toBe(lineKey('npm warn deprecated glob@7.2.3'));
  });
  it('a line of any length costs a bounded prefix', () => {
    expect(lineTemplate('x'.repeat(10_000_000)).length).toBeLessThanOrEqual(512);
  });
  it('counts in bounded memory, never under', () => {
    const c = new TemplateCounter(1024, 4);
    for (let i = 0; i < 5000; i++) c.add(lineKey(`passing test ${i} (3ms)`));
    c.add(lineKey('Error: something rare'));
    expect(c.count(lineKey('passing test 1 (9ms)'))).toBeGreaterThanOrEqual(5000);
    expect(c.count(lineKey('Error: something rare'))).toBeGreaterThanOrEqual(1);
    expect(c.count(lineKey('Error: something rare'))).toBeLessThan(50);
    expect(c.total).toBe(5001);
  });
});
