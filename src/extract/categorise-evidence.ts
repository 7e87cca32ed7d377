import type { Category, Signal } from '../types.js';
import type { Block } from '../evidence/block.js';
import { categoryFromBlocks } from '../evidence/classify-blocks.js';
import { CATEGORY_WORDS, FAULT_WORDS, INFRA_CAUSE, TEST_FAILURE_IN_COMPILER_SHAPE } from '../evidence/vocabulary.js';
import { locationsIn, STYLISH_ROW } from '../evidence/read-locations.js';

/**
 * A hosted runner's checkout folder, named twice for the repository (`/home/runner/work/lint-rules/lint-rules/`,
 * Travis's `/home/travis/build/owner/repo/`, Windows' `D:\a\repo\repo\`): the project's name, not the report's
 * words, so a repository named `i3-misspelled-…` or `test-utils` does not make a config error a lint or a test.
 */
const CHECKOUT_ROOT = /(?:\/home\/runner\/work|\/Users\/runner\/work|\/home\/travis\/build|\b[A-Z]:\\a)[/\\][^/\\\s]+[/\\][^/\\\s]+[/\\]/g;

/** Categories that, printed after an infra error, show the step ran on past it (as classify.ts reads signals). */
const LATER_FAILURE: readonly Category[] = ['test', 'compile', 'lint'];

export interface EvidenceCategoryInput {
  /** What the matchers' signals said (classify.ts); `unknown` when they gave none. */
  matched: Category;
  /** The matchers' signals the category was read from. */
  signals: readonly Signal[];
  /** The chosen evidence blocks (any order). */
  blocks: readonly Block[];
  /** The quoted text of a block. */
  textOf: (b: Block) => string;
  /** The failing step's name (`Install dependencies`, `bundle install`, `npm run lint`), when a CI format gave one. */
  stepName?: string;
  /**
   * The failing step is the CI's own fetch of the sources (formats' fetchesSources: `get_sources`,
   * `Declarative: Checkout SCM`, `actions/checkout@…`), which runs before any project command.
   */
  sourceFetch?: boolean;
  /**
   * The failing step is one the CI marks as setting up the machine (formats' `kind: 'setup'`: Travis's
   * `before_install` / `install` / `before_script`, which it ends with `failed and exited with N during .`).
   */
  setupStep?: boolean;
}

/**
 * The category from the evidence (issue 14): the matchers' category stands, except that a dependency
 * failure whose final evidence is the network is infra; with no matcher category, the blocks' own words
 * decide, best block first; infra only when an infra block is the step's final error (no test, compile or
 * lint failure after it); the failing step's name is the last resort; `unknown` when nothing fits. A
 * failure in the CI's own checkout step is infra.
 */
export function categoriseEvidence(input: EvidenceCategoryInput): Category {
  // The runner's checkout ended the job (`fatal: reference is not a tree`, `could not read Username`,
  // `repository … not found`, `Could not resolve host`): no project command ran, so nothing of the
  // project's failed. Infra ended the step (issue 14 part 4), whatever words git used.
  if (input.sourceFetch) return 'infra';
  const ordered = [...input.blocks].sort((a, b) => a.start - b.start);
  const read = ordered.map((b) => ({ b, text: input.textOf(b).replace(CHECKOUT_ROOT, '') })).map((x) => ({ ...x, category: blockCategory(x.b, x.text), infra: speaksInfra(x.b, x.text) }));
  const lastInfra = read.map((x) => x.infra).lastIndexOf(true);
  const infraEnded = lastInfra >= 0 && !read.slice(lastInfra + 1).some((x) => LATER_FAILURE.includes(x.category));

  // Stack frames alone (classify.ts's last resort) say only that code ran and died: what the evidence
  // says it died of is more specific (a syntax error, an unreachable host).
  const framesOnly = input.matched === 'test' && !input.signals.some((s) => s.kind === 'test' || (s.kind !== 'frame' && s.kind !== 'identifier' && s.category));
  if (input.matched !== 'unknown' && !framesOnly) {
    // A registry that cannot be reached makes every resolver say "could not resolve X": the network.
    const dependencyLocated = input.signals.some((s) => s.category === 'dependency' && s.path);
    return input.matched === 'dependency' && !dependencyLocated && infraEnded ? 'infra' : input.matched;
  }
  const generic = genericCategory(input, read, infraEnded, framesOnly);
  // A set-up step runs no tests: an error no tool recognised there, read as a test failure only by its
  // words (`Error: Invalid --abi armeabi-v7a for the selected target`) or by nothing at all, is the machine's
  // preparation failing (an emulator image, an SDK target, a tool the image lacks): infra. What names a
  // dependency, a compile or a lint failure stands, and so does a traceback: code that ran and died there
  // (a project's own module failing at import in `before_script`) is the project's failure, not the machine's.
  return input.setupStep && !framesOnly && (generic === 'test' || generic === 'unknown') ? 'infra' : generic;
}

/** The category when no matcher named one: the blocks' words, their located reports, the failed goal, the step's name. */
function genericCategory(input: EvidenceCategoryInput, read: readonly { b: Block; text: string; category: Category }[], infraEnded: boolean, framesOnly: boolean): Category {
  if (infraEnded) return 'infra';
  // A dependency that could not be had explains the errors printed after it (a missing archive, then
  // the build that needed it): the first block that names a category, when it is a dependency, decides.
  const first = read.find((x) => x.category !== 'unknown');
  if (first?.category === 'dependency') return 'dependency';
  for (const x of [...read].sort((a, b) => b.b.score - a.b.score)) if (x.category !== 'unknown') return x.category;
  if (framesOnly) return 'test';
  const located = locatedReport(read);
  if (located) return located;
  const goal = failedGoal(read.map((x) => x.text).join('\n'));
  const byGoal = goal ? categoryOfStepName(goal) : 'unknown';
  if (byGoal !== 'unknown') return byGoal;
  return input.stepName ? categoryOfStepName(input.stepName) : 'unknown';
}

const MAVEN_FAILED_GOAL = /Failed to execute goal [\w.-]+:[\w.-]+(?::[\w.-]+)?:([\w-]+) \(/;
const GRADLE_FAILED_TASK = /Execution failed for task '[\w:.-]*:([a-z]+)[\w]*'/;
/**
 * The goal or task a build tool says failed, when nothing in the evidence said why (a plugin's `Unexpected
 * error occured: NullPointerException`): its name is what the step was doing (`compile`, `test`,
 * `checkstyle`; Gradle's `compileJava` read by its first word).
 */
function failedGoal(text: string): string | undefined {
  return MAVEN_FAILED_GOAL.exec(text)?.[1] ?? GRADLE_FAILED_TASK.exec(text)?.[1];
}

/** What one block's words say: the specific shared vocabulary first, then the block rules, then test's vaguer words. */
function blockCategory(b: Block, text: string): Category {
  if (TEST_FAILURE_IN_COMPILER_SHAPE.test(text)) return 'test';
  for (const [category, re] of CATEGORY_WORDS) if (category !== 'test' && re.test(text)) return category;
  // A linter's stylish rows (`48:81-48:106 warning Unexpected reference …, expected …  rule-id`): findings
  // of a checker, whose messages' `expected` is not a test's expectation.
  if (text.split('\n').some((l) => STYLISH_ROW.test(l))) return 'lint';
  const older = categoryFromBlocks([b], () => text);
  if (older !== 'unknown' && older !== 'infra') return older;
  return CATEGORY_WORDS.find(([c]) => c === 'test')![1].test(text) ? 'test' : 'unknown';
}

/** A block that opens with the severity error, as a label (`ERROR TS2322: …`, `error: Rule "x" is not defined`). */
const SEVERITY_HEAD = /^\s*(?:error|ERROR|Error|fatal|FATAL)\b(?:\[\w+\])?:?\s/;
/** A report's severity when it says only that it warns (ChkTeX's `Warning 15 in a.tex line 46:`). */
const WARNING_ONLY = /\bwarning\b/i;
const ERROR_WORD = /\b(?:error|fatal|failed)\b/i;
/**
 * Reports in a row, none saying error (lacheck's `"a.tex", line 46: <- unmatched "\end{center}"` after its
 * `possible unwanted space` notes): a checker listing what it found, where a compiler stops at its first.
 */
const LINTER_LIST = 3;
/** A report's place, so a path's own words (`src/missing_test.py:3:`) are not read as its message's. */
const PLACE_PREFIX = /^\S+?:\d+(?:[:.]\d+)?:\s*/;
/**
 * A report that opens with the file it is about and its severity but names no line (desktop-file-validate's
 * `fish.desktop: error: value item "Shell" in key "Categories" …`): a checker's verdict on that file.
 */
const FILE_SEVERITY = /^(?:[\w.@~+-]*\/)*[\w@+-][\w.@~+-]*\.[\w+-]{1,10}: (?:fatal )?(?:error|warning)\b/i;
/** A caret line under a quoted source line: `    ^`, `   ^~~~`, Flow's `  ^^^^ [1]` (numbered for its references). */
const CARET = /^\s*\^[\^~]*(?:\s+\[\d+\])?\s*$/;

/**
 * A tool no rule knows, reporting on the code at a place in a source file (`bench/bubble.fs:32: Undefined
 * word`, `m4:loop.m4:11: cannot open …`) with words no category names: what checks code and stops the
 * step at a source line is its build; a report that only warns, or a list of reports none of which says
 * error, is a lint. Read after every word rule, so
 * a test runner's located failure is a test first.
 */
function locatedReport(read: readonly { b: Block; text: string }[]): Category | undefined {
  for (const { text } of [...read].sort((a, b) => b.b.score - a.b.score)) {
    const heads = text.split('\n').filter((l) => locationsIn(l).length > 0 || FILE_SEVERITY.test(l));
    if (!heads.length) continue;
    // The report's severity may head it, its place printed below under an excerpt (AssemblyScript's `ERROR TS2322:
    // Type … is not assignable …` over `└─ in assembly/index.ts(225,27)`)
    if (heads.some((l) => ERROR_WORD.test(l)) || SEVERITY_HEAD.test(text)) return 'compile';
    // Reports that neither say error nor name a fault (pyflakes' `'x' imported but unused`, codespell's
    // `recieve ==> receive`): a checker's findings about code that builds. A parser points a caret at the
    // column it could not read (libxml2's `xmlParseEntityRef: no name` over its excerpt): that is its build.
    const all = text.split('\n');
    if (!all.some((l) => FAULT_WORDS.test(l.replace(PLACE_PREFIX, '')) || CARET.test(l))) return 'lint';
    return heads.every((l) => WARNING_ONLY.test(l)) || heads.length >= LINTER_LIST ? 'lint' : 'compile';
  }
  return undefined;
}

function speaksInfra(b: Block, text: string): boolean {
  return INFRA_CAUSE.test(text) || categoryFromBlocks([b], () => text) === 'infra';
}

/**
 * A step named for what it does, when its output named nothing: installing what the build needs,
 * checking style, testing, building. Words of the name, in the order a step's name is most specific.
 */
const STEP_NAME_WORDS: readonly [Exclude<Category, 'unknown' | 'infra'>, RegExp][] = [
  ['dependency', /^(?:install|setup|restore)\b.*\b(?:dependenc|deps|packages|requirements|gems|modules)|\b(?:npm|yarn|pnpm) (?:ci|install)\b|\bpip3? install\b|\bbundle(?: install)?$|\bbundle install\b|\bcomposer (?:install|update)\b|\bapt(?:-get)? (?:-\S+ )*install\b|\bbrew install\b|\bgem install\b|\bmix deps\.get\b|\bgo mod download\b|\bcabal (?:update|install --only-dependencies)\b|\bconda (?:install|env create)\b|\bcpanm\b/i],
  // a linter named for what it lints (`stylelint`, `tslint`, `markdownlint`, `hadolint`), and xo, ESLint's wrapper
  ['lint', /\b(?:lint|linter|linting|format(?:ting)?|fmt|style|stylecheck|checkstyle|prettier|eslint|rubocop|flake8|pylint|ruff|black|isort|clippy|shellcheck|tidy|xo|\w+lint)\b/i],
  ['test', /\b(?:test|tests|testing|spec|specs|pytest|jest|vitest|mocha|rspec|ctest|phpunit|tox)\b/i],
  ['compile', /\b(?:build|compile|make|assemble|cmake|javac|tsc|gradlew? (?:build|assemble)|mvn (?:compile|package))\b/i],
];

/**
 * A command's option (`--config-test`): a server's self-check of its configuration says `test` there, and runs no
 * tests; a step that runs tests is named by its runner or its script. (An option can name a lint, `verilator
 * --lint-only`: only the test word is read past options.)
 */
const OPTION = /(?:^|\s)--?[\w-]+(?:=\S*)?/g;

function categoryOfStepName(name: string): Category {
  const withoutOptions = name.replace(OPTION, ' ');
  for (const [category, re] of STEP_NAME_WORDS) if (re.test(category === 'test' ? withoutOptions : name)) return category;
  return 'unknown';
}
