import type { Category, Signal } from '../types.js';

/** Failures a network or machine fault does not explain once they come after it: the step ran on. */
const LATER_FAILURE: readonly Category[] = ['test', 'compile', 'lint'];

/**
 * The kind of failure, from what the matchers said. Precedence follows what stops a build first: a
 * dependency that cannot be installed explains everything after it; a compile error stops the tests;
 * lint fails on its own; an infra fault (OOM, killed, network, disk, timeout) trumps test failures it
 * usually causes; then tests.
 *
 * Infra counts only when infra ended the step: its last infra error is the step's final error. A network
 * or resolver error the step survived (a test, compile or lint failure comes after it) is not the cause.
 * The same holds for an unlocated dependency error followed by tests that ran and failed at their own lines.
 * With no category here, the evidence blocks' words decide (categorise-evidence.ts).
 */
export function classify(signals: readonly Signal[]): Category {
  const strong = signals.filter((s) => s.kind !== 'identifier' && s.kind !== 'frame' && s.weight >= 0.5 && s.category && s.severity !== 'warning');
  const lastInfra = Math.max(-1, ...strong.filter((s) => s.category === 'infra').map((s) => s.logLine));
  const survived =
    lastInfra >= 0 &&
    (strong.some((s) => s.logLine > lastInfra && LATER_FAILURE.includes(s.category!)) || signals.some((s) => s.kind === 'test' && s.logLine > lastInfra));
  const infra = lastInfra >= 0 && !survived;
  const has = (c: Category) => (c === 'infra' ? infra : strong.some((s) => s.category === c));
  const located = (c: Category) => strong.some((s) => s.category === c && s.path);
  // A registry that cannot be reached makes every resolver say "failed to get X": that is the network,
  // not the dependency. A missing module named at a line of code is still a dependency failure.
  if (has('dependency') && has('infra') && !located('dependency')) return 'infra';
  // A package that could not be installed, and then tests that ran and failed at a line of their own:
  // the step went on past the install (`pip install … || true`); the failing tests are the cause.
  const lastDependency = Math.max(-1, ...strong.filter((s) => s.category === 'dependency').map((s) => s.logLine));
  const testsRanAfter = signals.some((s) => s.kind === 'test' && s.path && s.logLine > lastDependency && s.category !== 'dependency');
  // A build that broke at a line of its own first, then could not find what that line was to make (CMake's
  // unknown target, then the linker's `cannot find -lfoo`; the header the target would have provided): the
  // dependency error is the consequence, printed after the cause.
  const firstDependency = Math.min(Infinity, ...strong.filter((s) => s.category === 'dependency').map((s) => s.logLine));
  const brokeBefore = strong.some((s) => s.category === 'compile' && s.path && s.logLine < firstDependency);
  if (has('dependency') && !brokeBefore && !(testsRanAfter && !located('dependency'))) return 'dependency';
  if (located('compile')) return 'compile';
  if (located('lint')) return 'lint';
  if (has('infra')) return 'infra';
  if (has('compile')) return 'compile';
  if (has('lint')) return 'lint';
  if (has('test') || signals.some((s) => s.kind === 'test')) return 'test';
  // An uncaught panic or exception with frames in our code (a `go run`, a smoke script): the code
  // misbehaved at run time, which is what a test failure is.
  if (signals.some((s) => s.kind === 'frame' && s.weight > 0.05)) return 'test';
  return 'unknown';
}
