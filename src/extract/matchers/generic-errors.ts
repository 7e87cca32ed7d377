import type { Category, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { leadingLocation } from '../../evidence/read-locations.js';
import { FAULT_WORDS } from '../../evidence/vocabulary.js';

/**
 * The last resort: error-looking lines that no toolchain matcher claimed (`[ERROR] Failed to execute goal
 * …`, `npm ERR! …`, `error: …`, `FAILED`). They carry no location; they give evidence lines and, where
 * the words say it (a checkstyle or spotless goal, a compiler goal), a category. Weight stays below the
 * toolchain matchers' so they always win.
 */
const ERRORISH = /^(?:\[ERROR\]|ERROR[: ]|error[:[]|Error: |npm ERR! |npm error |E: |FATAL|fatal: |FAILURE: |BUILD FAILED|\* What went wrong)|\bFAILED\b|\bfailed with exit code\b/;
/** Boilerplate that surrounds real errors in Maven, Gradle and npm output and explains nothing. */
const BOILERPLATE =
  /To see the full stack trace|Re-run Maven|For more information about the errors|^\[ERROR\] \[Help \d+\]|After correcting the problems|mvn <goals>|^\[ERROR\]\s*$|Run with --(?:stacktrace|info|debug|scan)|Get more help at|A complete log of this run|npm ERR! *$|This is probably not a problem with npm|Failed at the .* script\.?$/;
/**
 * A report that opens with its place and names a fault without a severity word (`luac: a.lua:222: 'end'
 * expected …`, `bench/a.fs:32: Undefined word`, `Makefile:13: *** missing separator`): the form itself says
 * a tool found something wrong there (FAULT_WORDS, shared with categorise-evidence). Warnings are left to
 * the matchers and the evidence finder.
 */
const WARNING = /\bwarning\b/i;
/**
 * A cheap look for a place near the start (`x:12`, `x(12`, `… line 12`; not a timestamp), a program's or
 * function's name may lead it (BIND's `dns_rdata_fromtext: bind/db.local:15: …`), before the location forms are tried.
 */
const PLACE_NEAR_START = /^(?!\d{4}-\d\d-\d\d[T ])(?:[a-z][\w.+-]{0,30}: )?\S[^\s:(]{0,200}(?::[^\s:]{1,200})?(?::\d|\(\d)|^\S.{0,60}\bline \d/;

const MAVEN_GOAL = /Failed to execute goal [\w.-]+:([\w.-]+):/;

/** Gradle's failed-test line, `com.x.FooTest > testBarNeedsCompile FAILED`: a test, whatever its name says. */
const GRADLE_TEST_FAILED = /^[\w.$]+ > .+ FAILED$/;

function categoryOf(text: string): Category | undefined {
  if (GRADLE_TEST_FAILED.test(text)) return 'test';
  const goal = MAVEN_GOAL.exec(text)?.[1] ?? text;
  if (/checkstyle|spotless|pmd|spotbugs|javaformat|ktlint|detekt|rubocop|stylelint|lint/i.test(goal)) return 'lint';
  // At a word's start (`:compileJava`, `Compilation failure`), not inside a name (`testNeedsCompile`).
  if (/(?:^|[^A-Za-z])compil/i.test(goal)) return 'compile';
  if (/surefire|failsafe/i.test(goal)) return 'test';
  if (/Could not resolve dependencies|dependency-check|enforcer/i.test(goal)) return 'dependency';
  return undefined;
}

export const genericErrorsMatcher: Matcher = {
  id: 'generic',
  extract(lines) {
    const out: Signal[] = [];
    for (const l of lines) {
      const t = l.text.trimStart();
      if (t.length > 1000 || BOILERPLATE.test(t) || t.startsWith('##[')) continue;
      if (!ERRORISH.test(t) && !(PLACE_NEAR_START.test(l.text) && FAULT_WORDS.test(t) && !WARNING.test(t) && leadingLocation(l.text))) continue;
      const category = categoryOf(t);
      out.push({ kind: 'diagnostic', message: t.slice(0, 500), tool: 'generic', severity: 'error', weight: category ? 0.55 : 0.3, logLine: l.n, ...(category ? { category } : {}) });
    }
    // Only the last few matter: the end of a failing step is where the reason is printed.
    return out.slice(-8);
  },
};
