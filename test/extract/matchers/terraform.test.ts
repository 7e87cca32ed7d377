import { describe, expect, it } from 'vitest';
import { terraformMatcher } from '../../../src/extract/matchers/terraform.js';
import { logLines } from '../../helpers/log.js';

describe('terraformMatcher', () => {
  it("reads `terraform validate`'s boxed diagnostic, pinned to its `on file line N`", () => {
    const log = logLines('fixtures/recorded/terraform/validate.log');
    expect(terraformMatcher.extract(log)).toEqual([{ kind: 'diagnostic', path: 'main.tf', line: 151, symbol: 'locals',
      message: 'Reference to undeclared local value: A local value with the name "delimter" has not been declared. Did you mean',
      tool: 'terraform', severity: 'error', category: 'compile', weight: 1, logLine: 2, related: [4, 5, 7, 8] }]);
    expect(log.find((l) => l.n === 5)!.text).toContain('151:   id_full = join(local.delimter, local.labels)');
  });

  it('reads the same diagnostic printed with -no-color', () => {
    expect(terraformMatcher.extract(logLines('fixtures/recorded/terraform/validate-no-color.log')).map((s) => [s.path, s.line, s.category, s.logLine]))
      .toEqual([['main.tf', 151, 'compile', 2]]);
  });

  it("pins `terraform plan`'s refused variable to the module call's argument, not the validation rule", () => {
    const [s, ...rest] = terraformMatcher.extract(logLines('fixtures/recorded/terraform/plan.log'));
    expect(rest).toEqual([]);
    expect(s).toMatchObject({ path: 'label1.tf', line: 10, symbol: 'module "label1"', category: 'compile', severity: 'error',
      message: 'Invalid value for variable: Allowed values: `lower`, `title`, `upper`, `none`.' });
  });

  it('returns nothing for other tools', () => {
    expect(terraformMatcher.extract(logLines('fixtures/recorded/shellcheck/shellcheck.log'))).toEqual([]);
    expect(terraformMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
  });
});
