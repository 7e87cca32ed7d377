import { describe, expect, it } from 'vitest';
import { findFailingStep } from '../../src/log/find-failing-step.js';
import { actionsPage } from '../../src/log/formats/actions-page.js';

const toLines = (texts: string[]) => texts.map((text, i) => ({ n: i + 1, text }));

// Lines as a GitHub Actions job page copies them (jrequena/MabelPy's workflowslog.md, lihs-ie/window-logger's
// RUN_TEST_RESULT.md): `Run <cmd>`, the echo indented, the runner's exit as `Error: Process completed …`.
const phpunitCopy = [
  'Run composer install --prefer-dist',
  '  composer install --prefer-dist',
  '  shell: /usr/bin/bash -e {0}',
  'Installing dependencies from lock file',
  'Run vendor/bin/phpunit',
  '  vendor/bin/phpunit',
  '  shell: /usr/bin/bash -e {0}',
  '  env:',
  '    COMPOSER_NO_INTERACTION: 1',
  'PHPUnit 10.5.60 by Sebastian Bergmann and contributors.',
  'There were 4 errors:',
  '1) App\\Tests\\Post\\EloquentPostRepositoryTest::test_can_save_and_find_entity',
  'ERRORS!',
  'Tests: 13, Assertions: 17, Errors: 4.',
  'Error: Process completed with exit code 2.',
];

describe('GitHub Actions job pages copied as text', () => {
  it('the step whose page exit line says non-zero, from its `Run …` to that exit', () => {
    const lines = toLines(phpunitCopy);
    const layout = findFailingStep(lines, [], lines.length);
    expect(layout.format).toBe('github-actions');
    expect(layout.failing).toMatchObject({ name: 'vendor/bin/phpunit', startLine: 5, endLine: 15 });
  });

  it('a step whose echo the page left folded (`Run …` then a blank line) still opens a step when the page exit is there', () => {
    const lines = toLines(['Run dotnet test WindowLogger.sln --no-build', '  ', 'Test Run Failed.', 'Total tests: 6', '     Failed: 2', 'Error: Process completed with exit code 1.']);
    const layout = findFailingStep(lines, [], lines.length);
    expect(layout.failing).toMatchObject({ name: 'dotnet test WindowLogger.sln --no-build', startLine: 1, endLine: 6 });
  });

  it('a program printing `Run …` lines and its own `Error: …` is not a job page', () => {
    const lines = toLines(['Run tests for module a', 'ok', 'Error: Cannot find module \'x\'', 'Run tests for module b']);
    expect(actionsPage.detect({ lines, sections: [], totalLines: lines.length })).toBe(0);
  });
});
