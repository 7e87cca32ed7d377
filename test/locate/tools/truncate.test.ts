import { describe, expect, it } from 'vitest';
import { cutLine, cutNotice, printable, spillFull, truncateOutput } from '../../../src/locate/tools/truncate.js';
import { spyContext } from './helpers.js';

describe('truncate helpers', () => {
  it('cuts a line at the bound without splitting a surrogate pair', () => {
    expect(cutLine('abc', 5)).toBe('abc');
    expect(cutLine('abcdefgh', 5)).toBe('abcde… (line cut at 5 characters)');
    expect(cutLine('abcd😀x', 5)).toBe('abcd… (line cut at 5 characters)');
  });

  it('escapes control characters in names', () => {
    expect(printable('a\nb\x1b')).toBe('a\\x0ab\\x1b');
  });

  it('bounds text by lines and bytes, says how to narrow and spills the full text', async () => {
    const ctx = spyContext('/nowhere');
    const text = Array.from({ length: 50 }, (_, i) => `row ${i}`).join('\n');
    const r = await truncateOutput(text, { maxLines: 10, hint: 'Narrow it.', spillName: 'x.txt' }, ctx);
    expect(r.truncated).toBe(true);
    expect(r.output).toMatch(/^row 0\n[\s\S]*row 9\n\n\(Showing 10 of 50 lines; 40 omitted\. Narrow it\. The full output was saved to artifacts\/x\.txt\.\)$/);
    expect(ctx.spilled.get('x.txt')).toBe(text);
    const b = await truncateOutput(text, { maxBytes: 20, hint: 'Narrow it.', spillName: 'y.txt' }, { root: '/' });
    expect(b.output.startsWith('row 0\nrow 1\nrow 2\n\n(Showing 3 of 50 lines')).toBe(true);
    expect(b.spilledTo).toBeUndefined();
    expect((await truncateOutput('a\nb', { maxLines: 5, hint: '', spillName: 'z' }, ctx)).truncated).toBe(false);
  });

  it('never throws when spilling fails', async () => {
    const where = await spillFull({ root: '/', spill: async () => Promise.reject(new Error('disk full')) }, 'a', 'b');
    expect(where).toBeUndefined();
  });

  it('words a lower-bound total', () => {
    expect(cutNotice({ shown: 100, total: 300, unit: 'matches', hint: 'H.', atLeast: true })).toBe(
      '(Showing 100 of at least 300 matches; at least 200 omitted. H.)',
    );
  });
});
