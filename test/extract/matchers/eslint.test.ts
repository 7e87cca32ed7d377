import { describe, expect, it } from 'vitest';
import { eslintMatcher } from '../../../src/extract/matchers/eslint.js';
import { logLines } from '../../helpers/log.js';
import { hasWildLog, wildLineNo, wildLog } from '../../helpers/wild.js';
import { diagnose } from '../../../src/diagnose.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const root = (c: string) => `/home/runner/work/${c}/${c}`;

describe('eslintMatcher', () => {
  it('reads the stylish format: rows under their path line, rule id kept, warnings weaker', () => {
    const c = 'eslint-no-unused-vars';
    expect(eslintMatcher.extract(log(c))).toEqual([
      {
        kind: 'diagnostic',
        path: `${root(c)}/src/posts.js`,
        line: 1,
        column: 10,
        message: "'pad' is defined but never used (no-unused-vars)",
        tool: 'eslint',
        severity: 'error',
        category: 'lint',
        weight: 1,
        logLine: 3,
      },
      {
        kind: 'diagnostic',
        path: `${root(c)}/src/posts.js`,
        line: 21,
        column: 3,
        message: 'Unexpected console statement (no-console)',
        tool: 'eslint',
        severity: 'warning',
        category: 'lint',
        weight: 0.3,
        logLine: 4,
      },
    ]);
  });

  it('reads the unix format across files inside an Actions log', () => {
    const c = 'eslint-eqeqeq-unix-format';
    const signals = eslintMatcher.extract(log(c));
    expect(signals.map((s) => [s.path, s.line, s.column, s.severity, s.logLine])).toEqual([
      [`${root(c)}/src/lib/prices.js`, 2, 15, 'error', 23],
      [`${root(c)}/src/lib/prices.js`, 8, 35, 'error', 24],
      [`${root(c)}/src/lib/stock.js`, 8, 19, 'error', 25],
    ]);
    expect(signals[0]!.message).toBe("Expected '===' and instead saw '=='. (eqeqeq)");
  });

  it('reads the compact format', () => {
    const c = 'eslint-no-undef-compact-format';
    const signals = eslintMatcher.extract(log(c));
    expect(signals.map((s) => [s.path, s.line, s.column, s.message, s.logLine])).toEqual([
      [`${root(c)}/src/server.js`, 25, 64, "'port' is not defined. (no-undef)", 1],
      [`${root(c)}/src/templates.js`, 6, 32, "'__dirname' is not defined. (no-undef)", 2],
    ]);
    expect(signals.every((s) => s.category === 'lint' && s.weight === 1)).toBe(true);
  });

  it('finds nothing in other tools’ output', () => {
    const others = [
      'tsc-cascade-errors-one-file',
      'tsc-pretty-missing-argument',
      'tsc-signature-change-call-site',
      'prettier-check-syntax-error',
    ];
    for (const c of others) {
      expect(eslintMatcher.extract(log(c))).toEqual([]);
    }
  });
});

const UNDER_SETUP_NODE = 'gha-small-eslint-indent-errors-among-warnings';

describe.skipIf(!hasWildLog(UNDER_SETUP_NODE))("stylish rows behind setup-node's annotation commands (TheWell_Pipeline's lint job, a mirror log)", () => {
  it('reads `##[error]  1404:1   error  …  indent` rows under their file, and the step quotes the errors, not only the count', async () => {
    const signals = eslintMatcher.extract(logLines(wildLog(UNDER_SETUP_NODE)));
    const errors = signals.filter((s) => s.severity === 'error');
    // the text holds both matrix jobs (18.x, 20.x), each with eslint's 15 errors
    expect(errors).toHaveLength(30);
    expect(errors[0]).toMatchObject({ line: 1404, column: 1, message: 'Expected indentation of 4 spaces but found 6 (indent)' });
    expect(errors[0]!.path).toMatch(/\/src\/web\/public\/app\.js$/);
    const quoted = (await diagnose({ log: wildLog(UNDER_SETUP_NODE) })).evidence.map((e) => e.line);
    expect(quoted).toContain(wildLineNo(UNDER_SETUP_NODE, /##\[error\] {2}1404:1 {3}error/));
  });
});

