import { describe, expect, it } from 'vitest';
import { tripleQuotedLines } from '../../src/locate/blame-change.js';

describe('tripleQuotedLines: a Python docstring is no change of behaviour', () => {
  it('marks the lines a docstring spans, not the code around it', () => {
    const src = ['def f(elem, shape, dimensions=None):', '    """', '    dimensions: The name of the dimensions.', '    """', '    x = g(elem)', "    '''one line'''", '    return x'];
    expect([...tripleQuotedLines(src)]).toEqual([2, 3, 4, 6]);
  });

  it('keeps the two quote styles apart', () => {
    expect([...tripleQuotedLines(['"""a', "it's ''' not closed here", '"""', 'code()'])]).toEqual([1, 2, 3]);
  });

  it('leaves a triple-quoted string the code uses (an SQL query assigned) as code', () => {
    expect([...tripleQuotedLines(['sql = """', 'SELECT a FROM t', '"""', '"""doc"""'])]).toEqual([4]);
  });
});
