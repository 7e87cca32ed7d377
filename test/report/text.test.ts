import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/report/text.js';
import { ALNUM, located, noLocation, randomText, sourceFile } from './make.js';

const source = (file: string): string[] | undefined => (file === 'src/a.ts' ? sourceFile() : undefined);

describe('renderText', () => {
  it('prints the headline, the clickable pin, the source with ±2 lines, why and the log lines', () => {
    const out = renderText(located(), { color: false, source });
    const lines = out.split('\n');
    expect(lines[0]).toBe('✖ compile failure — src/a.ts:12:5');
    expect(out).toContain('  src/a.ts:12:5\n');
    expect(out).toContain('    10 │ line 10');
    expect(out).toContain("  > 12 │ const total: number = 'oops';");
    expect(out).toContain('\n       │     ^\n');
    expect(out).toContain('    14 │ line 14');
    expect(out).not.toContain('line 9');
    expect(out).not.toContain('line 15');
    expect(out).toContain("why: Type 'string' is not assignable to type 'number'.");
    expect(out).toContain('confidence 0.92');
    expect(out).toContain('log (step "Build"):');
    expect(out).toContain("log:120  src/a.ts(12,5): error TS2322");
    expect(out.endsWith('\n')).toBe(true);
  });

  it('has no escape sequences without colour, and colours with it', () => {
    const d = located({ evidence: [{ line: 1, text: 'evil \x1b[2J\x1b]0;title\x07 text' }] });
    const plain = renderText(d, { color: false, source });
    expect(plain).not.toContain('\x1b');
    expect(plain).not.toContain('\x07');
    const coloured = renderText(d, { color: true, source });
    expect(coloured).toContain('\x1b[31;1m✖\x1b[0m');
    expect(coloured).not.toContain('\x1b[2J');
  });

  it('says no location for an infra failure', () => {
    const out = renderText(noLocation(), { color: false });
    expect(out.split('\n')[0]).toBe(
      'no location: infra failure (The runner was shut down; nothing in the repo to point at.)',
    );
    expect(out).toContain('log:7  ##[error]The runner has received a shutdown signal.');
  });

  it('lists up to 3 more findings', () => {
    const more = Array.from({ length: 5 }, (_, i) => ({
      file: `src/f${i}.ts`, line: i + 1, message: `m${i}`, confidence: 0.5, cause: 'frame' as const, evidence: [],
    }));
    const d = located();
    d.findings.push(...more);
    const out = renderText(d, { color: false });
    expect(out).toContain('src/f0.ts:1');
    expect(out).toContain('src/f2.ts:3');
    expect(out).not.toContain('src/f3.ts');
  });

  it('bounds the evidence at 20 lines of at most 300 characters', () => {
    const evidence = Array.from({ length: 100 }, (_, i) => ({ line: i + 1, text: 'x'.repeat(1000) }));
    const out = renderText(located({ evidence }), { color: false });
    const logLines = out.split('\n').filter((l) => l.trimStart().startsWith('log:'));
    expect(logLines).toHaveLength(20);
    for (const l of logLines) expect(l.length).toBeLessThan(300 + 20);
    expect(out).toContain('… 80 more evidence lines');
  });

  it('redacts secrets from the log and the source', () => {
    const tok = 'gh' + 'o_' + randomText(36, ALNUM, 5);
    const src = sourceFile();
    src[11] = `const t = '${tok}';`;
    const out = renderText(located({ evidence: [{ line: 3, text: `token ${tok}` }] }), {
      color: false,
      source: () => src,
    });
    expect(out).not.toContain(tok);
    expect(out).toContain("const t = '[REDACTED:github-token]';");
  });

  it('escapes workflow commands in Action mode', () => {
    const d = located({ evidence: [{ line: 1, text: '::error file=x::pwned' }] });
    const out = renderText(d, { color: false, escapeCommands: true });
    for (const l of out.split('\n')) expect(l.trimStart().startsWith('::')).toBe(false);
    expect(out).not.toContain('##[');
  });
});
