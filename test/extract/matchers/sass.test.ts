import { describe, expect, it } from 'vitest';
import { sassMatcher } from '../../../src/extract/matchers/sass.js';
import { logLines } from '../../helpers/log.js';

const rec = (f: string) => sassMatcher.extract(logLines(`fixtures/recorded/web/${f}`));

describe('sassMatcher', () => {
  it("reads Dart Sass's indentation error at the box's `file L:C` line, the excerpt as related", () => {
    expect(rec('sass-indentation.log')).toEqual([{ kind: 'diagnostic', path: 'styles/main.sass', line: 5, column: 1,
      message: 'Inconsistent indentation, expected 4 spaces.', tool: 'sass', severity: 'error', category: 'compile', weight: 1, logLine: 1,
      related: [2, 3, 4, 5, 6] }]);
    expect(rec('sass-undefined-variable.log')).toMatchObject([{ path: 'styles/theme.scss', line: 5, column: 10, message: 'Undefined variable.' }]);
  });

  it("reads libsass's (sassc) `on line L:C of file` with the quoted line and caret", () => {
    expect(rec('sassc-indentation.log')).toMatchObject([{ path: 'styles/main.sass', line: 4, column: 21, related: [2, 3, 5] }]);
  });

  it('returns nothing for other tools (a deprecation warning box is not an error)', () => {
    expect(rec('stylelint.log')).toEqual([]);
    expect(sassMatcher.extract(logLines('fixtures/logs/tsc-cascade-errors-one-file/log.txt'))).toEqual([]);
  });
});
