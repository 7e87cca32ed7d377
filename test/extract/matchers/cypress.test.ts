import { describe, expect, it } from 'vitest';
import { cypressMatcher, cypressSpecPath } from '../../../src/extract/matchers/cypress.js';
import { mochaMatcher } from '../../../src/extract/matchers/mocha.js';
import { logLines } from '../../helpers/log.js';

// Real `cypress run` output published by lmarqs/cypress-rollup-preprocessor (MIT); see fixtures/recorded/cypress/SOURCE.md.
const log = logLines('fixtures/recorded/cypress/cypress-rollup-preprocessor.snapshot.js.txt');

describe('cypressMatcher', () => {
  it("maps the served spec URL of each failing test's frame to the spec's path and line", () => {
    const tests = cypressMatcher.extract(log).filter((s) => s.kind === 'test');
    expect(tests.map((s) => [s.symbol, s.path, s.line, s.column, s.category, s.message])).toEqual([
      ['fail on purpose fails', 'cypress/integration/fail.spec.js', 8, 23, 'test', 'AssertionError: expected 1 to be above 1'],
      ['runtime error throws a error', 'cypress/integration/runtime-error.spec.js', 8, 13, 'test', 'Error: error thrown on purpose'],
    ]);
    const text = (n: number) => log.find((l) => l.n === n)!.text.trim();
    expect(text(tests[0]!.logLine)).toBe('1) fail on purpose');
    expect(tests[0]!.related!.map(text)).toEqual(['fails:', 'AssertionError: expected 1 to be above 1', '+ expected - actual',
      'at Context.eval (http://localhost:****/__cypress/tests?p=cypress/integration/fail.spec.js:8:23)']);
  });

  it('reads a spec that failed to bundle as a compile error on that spec', () => {
    const [c] = cypressMatcher.extract(log).filter((s) => s.kind === 'diagnostic');
    expect([c!.path, c!.line, c!.category, c!.message]).toEqual(['cypress/integration/compile-error.spec.js', undefined, 'compile', 'Error: Unexpected token']);
  });

  it('maps the URL forms Cypress frames take, and nothing else', () => {
    expect(cypressSpecPath('http://localhost:3000/__cypress/tests?p=cypress/e2e/login.cy.js')).toBe('cypress/e2e/login.cy.js');
    expect(cypressSpecPath('webpack://vue-app/./cypress/e2e/login.cy.ts')).toBe('cypress/e2e/login.cy.ts');
    expect(cypressSpecPath('webpack:///./cypress/e2e/login.cy.ts')).toBe('cypress/e2e/login.cy.ts');
    expect(cypressSpecPath('http://localhost:3000/__cypress/runner/cypress_runner.js')).toBeNull();
    expect(cypressSpecPath('/home/runner/work/app/app/test/a.spec.js')).toBeNull();
  });

  it('maps the URLs in every V8 frame reader, so mocha.ts pins the same spec line', () => {
    expect(mochaMatcher.extract(log).map((s) => [s.path, s.line])).toEqual([
      ['cypress/integration/fail.spec.js', 8], ['cypress/integration/runtime-error.spec.js', 8]]);
  });

  it("leaves plain mocha output (whose frames are files, not Cypress's URLs) to mocha.ts", () => {
    expect(cypressMatcher.extract(logLines('fixtures/logs/mocha-deep-equal-merge/log.txt'))).toEqual([]);
    expect(cypressMatcher.extract(logLines('fixtures/recorded/karma/karma-throw.log'))).toEqual([]);
  });
});
