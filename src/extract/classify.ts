import type { Category, Signal } from '../types.js';

/**
 * The kind of failure, from what the matchers said. Precedence follows what stops a build first: a
 * dependency that cannot be installed explains everything after it; a compile error stops the tests;
 * lint fails on its own; an infra fault (OOM, killed, network, disk, timeout) trumps test failures it
 * usually causes; then tests.
 */
export function classify(signals: readonly Signal[]): Category {
  const strong = signals.filter((s) => s.kind !== 'identifier' && s.kind !== 'frame' && s.weight >= 0.5 && s.category && s.severity !== 'warning');
  const has = (c: Category) => strong.some((s) => s.category === c);
  const located = (c: Category) => strong.some((s) => s.category === c && s.path);
  if (has('dependency')) return 'dependency';
  if (located('compile')) return 'compile';
  if (located('lint')) return 'lint';
  if (has('infra')) return 'infra';
  if (has('compile')) return 'compile';
  if (has('lint')) return 'lint';
  if (has('test') || signals.some((s) => s.kind === 'test')) return 'test';
  return 'unknown';
}
