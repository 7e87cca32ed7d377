import { describe, expect, it } from 'vitest';
import { MAX_STEP_ANNOTATIONS, runnerOutput } from '../../src/action-steps/runner-output.js';

describe('runnerOutput', () => {
  it('echoes log text escaped and fenced by a random stop-commands token that the text cannot guess', () => {
    let text = '';
    const out = runnerOutput((s) => (text += s));
    out.echo('::error::heading', ['::add-mask::secret', '  ::stop-commands::x', '##[error]legacy', 'plain']);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(': :error::heading');
    const token = /^::stop-commands::([0-9a-f]{32})$/.exec(lines[1]!)![1];
    expect(lines.slice(2, 6)).toEqual([': :add-mask::secret', '  : :stop-commands::x', '# #[error]legacy', 'plain']);
    expect(lines[6]).toBe(`::${token}::`);
    // Two blocks never share a token.
    out.echo('again', ['x']);
    expect(text.split('\n').filter((l) => l.startsWith('::stop-commands::'))[1]).not.toBe(lines[1]);
  });

  it(`stops annotating after ${MAX_STEP_ANNOTATIONS} (GitHub drops the rest of a step's errors)`, () => {
    const out = runnerOutput(() => {});
    const written = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      const results = Array.from({ length: 12 }, (_, i) => out.annotate('a.ts', i + 1, 't', 'm'));
      expect(results.filter(Boolean)).toHaveLength(MAX_STEP_ANNOTATIONS);
    } finally {
      process.stdout.write = written;
    }
  });
});
