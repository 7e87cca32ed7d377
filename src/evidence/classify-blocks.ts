import type { Category } from '../types.js';
import type { Block } from './block.js';

/**
 * What the words of an evidence block say about the kind of failure, in many tools' styles. Checked in
 * this order within one block: a package that cannot be resolved explains the compile errors after it,
 * a compile error stops the tests, an assertion is a test; lint last (its words are the vaguest).
 */
const RULES: readonly [Exclude<Category, 'unknown' | 'infra'>, RegExp][] = [
  [
    'dependency',
    /Could NOT find \w|Could not find (?:a version|gem|package|module|a package configuration file)|\bfind_package\b|No matching distribution|version solving failed|Could not resolve dependencies|could not resolve (?:dependency|artifact)|Unable to resolve dependency|ERESOLVE|\bE404\b|package .* (?:is not available|not found)|there is no package called|unmet (?:dependency|peer)|Unable to locate package|requires .* but .* is installed|Your requirements could not be resolved|dependency resolution failed|Failed to resolve|No package '[^']+' found|Cannot find module '[^./]|ModuleNotFoundError: No module named|cannot load such file|Can't locate \S+\.pm in @INC|Bundler could not find|not found in (?:the )?(?:registry|repository|index)|pkg-config/,
  ],
  [
    'compile',
    /:\d+(?::\d+)?:?\s+(?:fatal )?error\b|^\s*error(?:\[E\d+\])?: |\berror (?:TS|CS|C|FS)\d+|\bfatal error: |\bSyntaxError\b|[Ss]yntax error|[Pp]arse error|ParseError|cannot find symbol|undefined reference to|was not declared in this scope|no matching function|has no member named|is not a member of|incompatible types|cannot convert|unknown type name|implicit declaration|[Cc]ompilation (?:failed|terminated|error)|failed during the building phase|[Cc]ould not compile|[Ff]ailed to [Cc]ompile|COMPILATION ERROR|type mismatch|No instance for|Couldn't match|Variable not in scope|Not in scope:|undefined: \w|undeclared (?:name|identifier)|use of undeclared|Unresolved reference|cannot find (?:type|value|name|function|macro)|error: linking|ld returned|linker command failed|error MSB\d+|\*\* BUILD FAILED \*\*|xcodebuild: error|\(CompileError\)|== Compilation error|Module not found|\bparser error\b|This expression has type|Unbound (?:value|module|type constructor|constructor)|does not match the interface|(?:\.\w+:\d+(?::\d+)?:?|\.\w+\(\d+(?:,\s?\d+)?\)|", line \d+(?:, characters \d+-\d+)?:)[^\n]*\n(?:[^\n]*\n){0,6}?\s*(?:Fatal )?Error: /,
  ],
  [
    'test',
    /\bassert|\bexpect(?:ed|ation)?\b|Failed asserting|\bnot ok \d+|\bFAIL(?:ED)?\b|\b\d+ (?:tests? )?fail(?:ed|ures?|ing)\b|Failures?: [1-9]|Tests? (?:run|failed)|test(?:s|case)? (?:failed|failure)|\bspec\b|examples?, [1-9]\d* failures?|\bbut (?:was|got)\b|\bto (?:equal|be|eq|match)\b|\bActual\b|\bReceived\b|Test Suites:|\bAssertion|\bpanicked at\b|\bdoctest\b|--- FAIL|Exception in test|^stack traceback:$|^\s*(?:while executing|invoked from within)$|test_\w+|\w+Test\b|\w+Spec\b|\bTAP\b/m,
  ],
  [
    'lint',
    /\blint(?:er|ing)?\b|\brubocop\b|\boffen[cs]es?\b|\bstyle\b|\bformat(?:ting|ted)?\b.*\b(?:check|would|differ)|would reformat|would be reformatted|\bcheckstyle\b|\bshellcheck\b|\bSC\d{4}\b|\bflake8\b|\bpylint\b|\bruff\b|\bclippy\b|\bgolangci\b|\bgofmt\b|\bprettier\b|\bstylelint\b|\bmarkdownlint\b|\bMD\d{3}\b|\bhadolint\b|\bDL\d{4}\b|\bcodespell\b|\bmisspell|\bisort\b|\bblack\b|\bvale\b|\bktlint\b|\bdetekt\b|\bphpcs\b|\bPSR-?\d+\b|\bcs-fixer\b|trailing whitespace|line too long|\bunused (?:import|variable|argument|function)|accessing undefined (?:variable|field)|setting non-standard global|\(Severity: \d\)|\d+ warnings? \/ \d+ errors? in \d+ files?/i,
  ],
];

/** Runner and machine faults; read only off a block the finder already called infra. */
const INFRA_WORDS = /No space left on device|\bENOSPC\b|exceeded the maximum time limit|\bOOMKilled\b|lost communication|shutdown signal/;

/**
 * The category the chosen evidence blocks speak for, when the matchers said nothing: the best block
 * (by score) whose words fit a category decides; `unknown` only when no block fits any.
 */
export function categoryFromBlocks(blocks: readonly Block[], textOf: (b: Block) => string): Category {
  const byScore = [...blocks].sort((a, b) => b.score - a.score);
  for (const b of byScore) {
    const text = textOf(b);
    if (b.kind === 'infra' && INFRA_WORDS.test(text)) return 'infra';
    for (const [category, re] of RULES) if (re.test(text)) return category;
    if (b.kind === 'assertion') return 'test';
    // A program that died with a stack trace and no other word: in CI that is the tests' run (Lua's, Tcl's, Guile's)
    if (b.kind === 'trace') return 'test';
  }
  return 'unknown';
}
