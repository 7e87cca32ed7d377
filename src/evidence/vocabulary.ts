/**
 * The words and shapes of failure, as many toolchains print them: what makes a line look like an error,
 * a stack frame, an assertion diff, a failure summary, or merely the runner's echo of an exit code. Every
 * pattern here is an alternation of literals and simple classes (no nested quantifiers): each line
 * costs a few linear scans.
 */

/** Paths and URLs say where, not what: `errors/handler.go` or `/fail/` must not read as an error. */
const PATHISH = /\bhttps?:\/\/\S+|(?:[A-Za-z]:)?(?:[\w.@~+-]*[\\/])+[\w.@+-]*/g;
/** Options and hyphenated names (`-XX:+ExitOnOutOfMemoryError`, `--fail-fast`, `localized-error-pages`) name things, they report nothing. */
const NAMEISH = /(?:^|\s)-{1,2}\w[\w:+.=,-]*|\b\w+(?:-\w+)*-(?:error|fail)\w*(?:-\w+)*|\b(?:error|fail)\w*(?:-\w+)+/gi;

/** Python's traceback header; a tool may print its own words before it on the line (pants' `Problem executing PythonBuilder for …: Traceback (most recent call last):`). */
export const PY_TRACEBACK_HEAD = /(?:^\s*|: )Traceback \(most recent call last\):$/;

// Words that say something went wrong, strongest first. The strong set is what a tool prints when it
// reports a failure; the medium set is what such a report says about it.
const STRONG = new RegExp(
  [
    String.raw`(?:^|[\s:\]\[(])(?:fatal )?error(?:\[\w+\])?(?: \w+\d+)?\s*[:!\]]`,
    String.raw`^\s*(?:\[?ERROR\]?|ERR!|FATAL|FAIL(?:ED|URE)?|E)\b[:\]]?`,
    String.raw`\b(?:FAILED|FAILURE|FATAL|PANIC|ERROR)\b`,
    String.raw`^\s*not ok \d+`,
    String.raw`\bpanic(?:ked)?\b`,
    String.raw`Traceback \(most recent call last\)`,
    // An exception's or error's type name; a source file named after one (`[216/475] Compiling OpenAPIRuntime
    // RuntimeError.swift`, `CloudKitError+OpenAPI.swift`) is a file a build lists, not an error, and neither is
    // xcodebuild's build action on a product it made (`▸ [Target] RegisterExecutionPolicyException Target.o`,
    // `… Packages_DLS.bundle`, `… Ifrit.framework`).
    String.raw`\b[A-Z]\w*(?:Exception|Error)\b(?!(?:\+\w+)?\.(?:swift|kts?|java|scala|tsx?|jsx?|mjs|py|rb|go|rs|cs|cpp|cc|c|h|hpp|m|mm|o|dart|php|exs?)\b|\s+\S+\.(?:o|bundle|framework|app|appex|xctest|dylib|a)\s*$)`,
    // A test runner that found nothing to run fails for it: pytest's `no tests ran` (exit 5), jest's
    // `No tests found, exiting with code 1`, vitest's `No test files found, exiting with code 1`.
    String.raw`\bno tests ran\b|\bNo tests found\b|\bNo test files found\b`,
    String.raw`\b(?:Segmentation fault|core dumped|Aborted|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|ThreadSanitizer|runtime error:|stack overflow)`,
    String.raw`Failed asserting|Assertion (?:\S+ )?failed|assert(?:ion)? ?failed|\bassertion\b`,
    // A comparison that names both values is a failed assertion whatever the runner (JUnit's, shunit2's
    // `ASSERT:msg expected:<> but was:<x>`), and an `ASSERT:` label opens a runner's report.
    String.raw`\bexpected:?\s*<[^>]*>\s*but was:?\s*<|^\s*ASSERT(?:ION)?:`,
    String.raw`\bfatal\b`,
    // Jenkins' compiler report on its Pipeline script, at a line of the Jenkinsfile (`WorkflowScript: 11:
    // Expected a step @ line 11, column 17.`), printed under `startup failed:` and set apart by blank lines.
    String.raw`^WorkflowScript: \d+: `,
    String.raw`[✗✘✕×❌]`,
    // make's fatal errors (`make: *** No rule to make target 'x'.  Stop.`, `Makefile:3: *** missing separator.  Stop.`).
    String.raw`\*\*\* .*\.\s+Stop\.$`,
    // A parser's missing token: Lua's and Pascal's `'end' expected (to close …)`, `expected ';' before …`,
    // Varnish's VCC `Expected ';' got '}'`.
    String.raw`['"\`‘][^'"\`’\s]{1,20}['"\`’] expected\b|\b[Ee]xpected ['"\`‘][^'"\`’\s]{1,20}['"\`’]`,
    String.raw`\b(?:Could NOT find|could not (?:be )?(?:find|resolve|compile|load|open|read|connect)|cannot find|can't find|No such file or directory|command not found|not found in|is not defined|undefined reference|undefined method|undefined variable|undefined function|undefined symbol|unresolved (?:reference|import|external)|syntax error|invalid syntax|parse error|Permission denied)\b`,
    // dash's (Debian's /bin/sh) missing command, `sh: 1: docker: not found` (a script's path may come twice:
    // `/tmp/x.sh: 1: /tmp/x.sh: docker: not found`, read with its paths blanked): bash's `command not found`.
    String.raw`:\s\d+:\s+(?:\S*:\s+)?[^:\s]+: not found$`,
    // A reader that ran out of input inside a form: MIT Scheme's `;Premature EOF on #[textual-input-port … for file: "…"]`.
    String.raw`\b[Pp]remature (?:EOF|end of (?:file|input))\b`,
    // syslog's severities above error, as servers tag what stops them (nginx's `[emerg] … unknown directive`,
    // HAProxy's `[ALERT]    (1234) : config : parsing [a.cfg:26] : …`, Apache's `[crit]`)
    String.raw`\[(?:emerg|alert|crit|EMERG|ALERT|CRIT)\]`,
  ].join('|'),
);
/**
 * A parser saying which punctuation it wanted, in words and quotes (BibTeX's ``I was expecting a `,' or a `}'``,
 * Bison's `expecting ';'`): a report of a fault even with no error word. Quoting punctuation, not a value, keeps a
 * test's `expecting 3 calls` out.
 */
const WANTED_PUNCTUATION = /\bexpect(?:ed|ing) (?:an? )?["'`‘][^\w\s"'`‘’]{1,3}["'`’]/;
/**
 * Failure's own words: enough to start a block. Docker's failed health check (`container web-1 is unhealthy`,
 * after `docker compose up --wait`) among them; a script's own talk of unhealthy instances is not.
 */
const FAILURE_WORDS = new RegExp(
  String.raw`\b(?:fail(?:s|ed|ure|ures|ing)?|errors?|errored|exception|denied|not found|undefined|undeclared|unexpected|cannot|can't|could not|couldn't|unable to|does not exist|doesn't exist|refused|timed out|container \S+ is unhealthy|crash(?:ed)?|abort(?:ed|ing)?|giving up|gave up|(?:hence|so|now) exiting)\b|\bSeverity:\s*(?:High|HIGH|Critical|CRITICAL)\b|` + WANTED_PUNCTUATION.source,
  'i',
);
/** Words a failure report uses, that plenty of routine lines use too: they extend a block, never start one. */
const MEDIUM = /\b(?:no such|invalid|missing|timeout|expected|broken|mismatch|unresolved|illegal|violation|unsupported|wrong|incorrect|forbidden|unauthorized|offen[cs]es?|conflict|not (?:a |an )?valid)\b/i;
/** A report that nothing went wrong, or a switch that mentions failure: `0 errors`, `--fail-fast`, `fail_on_error`. */
const NEGATED =
  /\b(?:0|no|zero) (?:errors?|failures?|failed|failing|problems?|issues?)\b|\b(?:errors?|failures?|failed)[:=] ?0\b|--[\w-]*(?:fail|error)[\w-]*|\b(?:fail|error)_[\w]+|\b\w+_(?:fail|error)s?\b|\bif (?:any )?(?:fail|error)|\bon[_-]?(?:failure|error)\b|continue-on-error|\bignore[\w-]*errors?\b/i;
/**
 * Lines whose point is that things went well, or that a test was skipped on purpose: pytest's short
 * summary of skips and expected failures (`SKIPPED [1] tests/x.py:12: could not find any SIMD extension`,
 * `XFAIL tests/x.py::t - fails on most platforms`, `tests/x.py::t SKIPPED (needs a GPU)`) gives the skip's
 * reason, whose words (`could not find`, `fails`, `segfaults`) are no failure of this run.
 */
/**
 * A test runner's line saying a test passed (or was skipped): `PASSED`, `... ok`, `✓`, `ok 3 - …`, and a
 * suite's notice that it skips a test (`Skipping test 'tlsInsecure=true … raises an error'`), whose name is
 * the test's, no failure of this run.
 */
export const PASSING = /^\s*(?:PASS\b|ok\s+\d|ok\s+\S+\s+\d|✓|✔|√|\[\s*(?:OK|PASSED)\s*\])|\bPASSED\b|\b\d+ passed\b(?!.*\bfailed\b)|\.\.\. (?:ok|skipped\b.*)$|^\s*skipped '|^\s*Skipping test\b|^\s*(?:SKIPPED|XFAIL)(?: \[\d+\])?\s|::\S+ (?:SKIPPED|XFAIL)\b/;
/**
 * A line its own logger tagged with a level below error (`[INFO] Error size is 0`, `[WARNING] javadoc:
 * warning - Error fetching URL`, `… main  WARN transport.Client: Failed to start`, `level=warning`):
 * the tool itself says it is not the failure, whatever words it carries.
 */
const ROUTINE_LEVEL = /^\s*(?:\[(?:INFO|WARN|WARNING|DEBUG|TRACE|NOTICE)\]|(?:INFO|WARNING|DEBUG|TRACE|NOTICE):)|^.{0,80}?\s(?:INFO|WARN|DEBUG|TRACE)\s{1,2}[\w.$[\]-]+:?\s|\blevel=(?:info|warn|warning|debug|trace)\b/;
/**
 * Lines printed at an error level that are notes: a package manager's warn level (`npm warn publish errors
 * corrected:`), also when a wrapper relays the tool's stderr under its own `ERROR` (release-it's `ERROR npm
 * warn publish …`), and pip's notes on the versions it passed over before it says none fits (`ERROR: Ignored
 * the following yanked versions: …`, `… that require a different python version: …`; its `Could not find a
 * version that satisfies …` under them is the error). Read as routine, like an `[INFO]` line.
 */
const NOTE_AT_ERROR_LEVEL = /^\s*(?:ERROR:?\s+)?(?:npm|yarn|pnpm) (?:warn|WARN)\b|^ERROR: Ignored the following (?:yanked )?versions\b/;
/** Warnings and deprecations are context, not the cause, unless they also say error. */
const WARNING = /\bwarn(?:ing)?s?\b|\bdeprecat/i;
/** A command being echoed (`$ make`, `+ npm test`, `> jest`, `[command]…`, `Run pytest`): what ran, not what broke. */
const COMMAND_ECHO = /^(?:\$ |\+ |\+\+ |> |\[command\]|Run |Running |Executing |Script: |shell: )/;

/**
 * The runner's or the build tool's echo of a failure already reported above it: the exit code, `make`'s
 * `*** Error 1`, `npm ERR! code ELIFECYCLE`, Travis's `The command … exited with 1.`. True, but the
 * reason is elsewhere: quoted only when nothing better exists.
 */
const CONSEQUENCE = new RegExp(
  [
    String.raw`Process completed with exit code`,
    // Azure's task runner quotes the code: `##[error]Bash exited with code '1'.`
    String.raw`exited with (?:code |status )?'?-?\d+`,
    String.raw`exit (?:code|status) -?\d+`,
    String.raw`(?:returned|failed with) (?:a )?non-zero exit`,
    String.raw`returned exit code`,
    String.raw`ELIFECYCLE`,
    String.raw`Command failed with exit code`,
    // make's `*** [target] Error 2` echoes a recipe that failed above it; its `*** No rule to make target …  Stop.`
    // is make's own error, the cause.
    String.raw`^make(?:\[\d+\])?: \*\*\* (?:\[.*\] Error \d+|Waiting for unfinished jobs)`,
    String.raw`^npm ERR! (?:code|errno|A complete log|Failed at|This is probably|Exit status|syscall|$)`,
    // npm 2–4's advice under a failed script (ELIFECYCLE): its platform and versions, whom to tell, where the
    // debug log is, and the command echoed back indented; what failed is printed above it.
    String.raw`^npm ERR! (?:(?:Linux|Darwin|Windows_NT) \d|argv "|node v\d|npm {1,2}v\d|Make sure you have the latest|If you do, this is most likely|not with npm itself|Tell the author|You can get (?:information|their info)|Or if that isn't available|There is likely additional logging|Please include the following file| {4})`,
    String.raw`^npm error (?:code|errno|A complete log|command failed|path|command)\b`,
    // npm's advice under an ERESOLVE report (retry with --force, where the full report is), like Maven's [Help 1].
    String.raw`^npm (?:ERR!|error) (?:Fix the upstream dependency conflict|this command with --force|to accept an incorrect \(and potentially broken\)|For a full report see:|See \S+ for a full report|\S+eresolve-report\.txt\s*$)`,
    String.raw`^error Command failed`,
    // npm 10's restatement that a package script failed (`npm error Lifecycle script \`test\` failed with
    // error:`, then its `code`, `path`, `location` and `command` lines): the script's own failure is above it.
    String.raw`^npm (?:error|ERR!) (?:Lifecycle script \`[^\`]+\` failed|workspace |location )`,
    // BuildKit's restatement of a `RUN` instruction that exited non-zero, after the instruction's own output
    // (`#15 ERROR: process "/bin/sh -c npm run build" did not complete successfully: exit code: 1`), then again
    // under the Dockerfile excerpt (`ERROR: failed to build: failed to solve: process …`, compose's `target
    // web: failed to solve: …`) and in build-push-action's annotation (`##[error]buildx failed with: ERROR: …`).
    // What the command printed is the cause. (A `failed to solve` that names no process, a missing base image
    // or a Dockerfile parse error, is BuildKit's own error and is not matched.)
    String.raw`^(?:#\d+ )?ERROR: process ".*" did not complete successfully: exit code: -?\d+`,
    String.raw`^(?:##\[error\]buildx failed with: )?(?:ERROR: )?(?:failed to build: )?(?:target [\w.-]+: )?failed to solve: process ".*" did not complete successfully`,
    // A build CLI's closing line that only says the build failed, after the compiler's or bundler's own error
    // (tauri-cli's `failed to build app: failed to build app` and `Error failed to build app: …`).
    String.raw`^(?:Error )?failed to build app(?:: failed to build app)?$`,
    // A checker's closing tally of the reports it printed above (doc8's `Total accumulated errors = 1` over
    // `Detailed error counts:`): a count, not a report
    String.raw`^Total (?:accumulated |number of )?(?:errors?|problems?|warnings?|issues?)\s*[=:]\s*\d+\s*$|^Detailed (?:error|warning) counts:\s*$`,
    // pytest's closing tally between its rules (`==== 1 failed, 802 passed, 66 skipped in 1284.21s (0:21:24) ====`,
    // `!!! Interrupted: 5 errors during collection !!!`): counts of the failures reported above it, which name
    // what failed; the tally names nothing. (`-q`'s unfenced `2 failed, 5 passed in 2.34s` is left alone: the
    // corpus's recorded pytest labels quote it, as the whole of a short run's verdict.)
    String.raw`^=+ (?:\d+ \w+(?:, )?)+ in [\d.]+s(?: \([\d:]+\))? =+$|^!+ Interrupted: \d+ errors? during collection !+$`,
    String.raw`marked build as failure`,
    // A publisher's notice that it failed the build (`Build step 'Publish HTML reports' changed build result to
    // FAILURE`, `Set result to FAILURE`): its own `ERROR:` lines above say why.
    String.raw`^Build step '.+' changed build result to FAILURE$|^Set result to FAILURE$`,
    String.raw`^Finished: FAILURE`,
    String.raw`^ERROR: Job failed`,
    String.raw`^(?:BUILD FAILED|FAILURE: Build failed with an exception\.?)$`,
    String.raw`^\[ERROR\](?:\s*$| (?:-> )?\[Help|\s+To see the full stack trace|\s+Re-run Maven|\s+For more information about|\s+After correcting|\s+mvn <)`,
    String.raw`^\[INFO\] (?:BUILD FAILURE|.*\.{3,} (?:FAILURE|SKIPPED)\b)`,
    String.raw`^BUILD FAILED in \d`,
    // Gradle's restatement of failed tests reported above (the report link), and its count of failures.
    String.raw`^> There were failing tests\. See the report`,
    String.raw`^FAILURE: Build completed with \d+ failures?\.`,
    String.raw`^(?:Run|Try:?) with --(?:stacktrace|info|debug|scan)|^\* Try:|^> Run with|^Get more help at`,
    String.raw`^Error: Process completed`,
    String.raw`^ERROR: (?:InvocationError|Build failed|script returned exit code)`,
    String.raw`^script returned exit code`,
    String.raw`^The command ".*" (?:failed|exited)`,
    String.raw`^Done\. Your build exited with`,
    String.raw`^-- Configuring incomplete, errors occurred`,
    // The runner's own `##[error]` lines (the exit codes above, a canceled operation) restate the failure;
    // a tool's message the runner annotated (`##[error]error: invalid path …`, eslint's `##[error]  67:17
    // error …` through a problem matcher, a `::error::` a script wrote) is the step's own report, not a
    // restatement, and is read like any other line.
    String.raw`^##\[error\]\s*$`,
    // An action's annotation that only says the build failed, and where to look (`##[error]Gradle build
    // failed: https://gradle.com/s/…`): the failure is above it.
    String.raw`^##\[error\][\w .-]{0,40}\bfailed(?:: *https?://\S+)?\.?$`,
    // A tool's own closing restatement that its step failed, after the failure it printed above: cargo's
    // `error: test failed, to rerun pass --lib`, CTest's `Errors while running CTest`, R's `Execution
    // halted` under testthat's `Error: Test failures`, surefire's pointer to its reports, Maven's reactor
    // note that later modules were skipped, Rust's x.py `Build completed unsuccessfully`.
    String.raw`^error: test failed, to rerun pass`,
    // unittest's verbose verdict alone on a line, when the test printed its own output after its title
    // (`Deploy a cluster ... <log lines>` then `ERROR`): it says a test failed, and the `ERROR: title`
    // block under the `=====` rule says which and why.
    String.raw`^(?:ERROR|FAIL)$`,
    String.raw`^Errors while running CTest$`,
    String.raw`^Execution halted$`,
    String.raw`^Error: Test failures$`,
    String.raw`^Build completed unsuccessfully in`,
    String.raw`^(?:\[ERROR\] )?Please refer to .* for the individual test results|^(?:\[ERROR\] )?Please refer to dump files`,
    String.raw`banned from the build due to previous failures`,
    // Advice on how to see more (a backtrace, a verbose mode): what to do next, not what went wrong.
    // CTest's `Use "--rerun-failed --output-on-failure" to re-run the failed cases verbosely.` and ESLint's
    // `2 errors and 0 warnings potentially fixable with the \`--fix\` option.` are advice of that kind.
    String.raw`^Use "--rerun-failed --output-on-failure" to re-run`,
    String.raw`^\d+ errors? and \d+ warnings? potentially fixable with the`,
    String.raw`^note: run with \`RUST_BACKTRACE=|^note: Some details are omitted, run with`,
    String.raw`^For more information about (?:this error|an error), try \`rustc --explain`,
  ].join('|'),
);

/** RSpec's failure label, `Failure/Error: expect(x).to eq(1)`: a slash that joins two words of failure, no path. */
const SLASHED_LABEL = /\bFailure\/Error:/g;

/** How strongly a line says "something failed here", 0..1 (paths and URLs masked first). */
/**
 * rm saying that what it was asked to delete is not there (`rm: cannot remove 'x.txt': No such file or
 * directory`): the file is gone, as wanted. A script that cleans up before it starts prints it and runs on.
 */
const ALREADY_GONE = /^rm: cannot remove .*: No such file or directory$/;

export function errorScore(text: string): number {
  if (text.length > 2000) return 0;
  const t = text.replace(SLASHED_LABEL, ' error: ').replace(PATHISH, ' ').replace(NAMEISH, ' ');
  if (!t.trim()) return 0;
  let s = STRONG.test(t) ? 0.9 : FAILURE_WORDS.test(t) ? 0.6 : MEDIUM.test(t) ? 0.45 : 0;
  if (!s) return 0;
  if (NEGATED.test(t)) s *= 0.3;
  if (PASSING.test(t) || ALREADY_GONE.test(text)) s *= 0.3;
  if (ROUTINE_LEVEL.test(t) || NOTE_AT_ERROR_LEVEL.test(text)) s *= 0.45;
  else if (WARNING.test(t) && !/\berror/i.test(t)) s *= 0.45;
  if (COMMAND_ECHO.test(t)) s *= 0.3;
  return s;
}

/** The runner's or build tool's restatement of a failure reported above it (see CONSEQUENCE). */
/**
 * A structured log's own fatal report (logrus/zap: `level=fatal msg="Error authenticating: exit status 1"`)
 * is the tool saying what it failed to do, even when its message ends with the exit status it got.
 */
const STRUCTURED_FATAL = /\blevel=(?:fatal|panic|error)\b.*\bmsg=/;
/**
 * A report that quotes an exit status inside its own message and goes on to say why (podman's `Error
 * processing tar file(exit status 1): there might not be enough IDs available in the namespace …`): the
 * status is a detail of the report, not a restatement of it.
 */
const QUOTED_EXIT = /exit (?:code|status) -?\d+\)?: \S.{20,}/;
/**
 * Python's `subprocess.CalledProcessError: Command 'terraform apply …' returned non-zero exit status 1.` (and
 * a library's subclass of it, `DevopsCalledProcessError: Command 'apt-get update' …`): the exception a
 * traceback ends on, naming the command that failed. It is the traceback's own last line, not a runner
 * restating the step's exit.
 */
const EXCEPTION_NAMING_COMMAND = /\b\w*(?:Error|Exception): Command .+ returned non-zero exit status -?\d+/;
export const isConsequence = (text: string): boolean =>
  CONSEQUENCE.test(text.trimStart()) && !STRUCTURED_FATAL.test(text) && !QUOTED_EXIT.test(text) && !EXCEPTION_NAMING_COMMAND.test(text);

/** A stack frame, in the shapes of JVM, V8, Python, Ruby, Go, Rust, PHP, Perl, C/C++ (gdb, sanitizers), Elixir, .NET, Swift. */
const FRAME = new RegExp(
  [
    String.raw`^\s+at\s+\S`,
    // (not OCaml's diagnostics, `File "a.ml", line 20, characters 4-9:` and `File "a.ml", line 1:`)
    String.raw`^\s*File ".*", line \d+(?!\d|:|, characters)`,
    String.raw`^\s*#\d+\s+(?:0x[0-9a-f]+ in |\S+\(|\{main\}|\S+ at )`,
    String.raw`^\s*(?:from\s+)?\S+\.\w+:\d+:in\b`,
    // Ruby's frame of a file with no extension, as its backtraces name Rakefile, Gemfile, Guardfile and the
    // binstubs (`/build/x/Rakefile:5:in \`block (2 levels) in <top (required)>'`, `bin/rails:4:in \`<main>'`,
    // rubygems' `ruby_executable_hooks:15:in \`eval'`): the method in quotes (a backtick before Ruby 3.4) says frame.
    String.raw`^\s*(?:from\s+)?\S+:\d+:in [\`'‘]`,
    // RSpec's backtrace under a failure: `# ./spec/models/a_spec.rb:352:in \`block (3 levels) in <top (required)>'`
    String.raw`^\s*# \S+\.\w+:\d+:in\b`,
    String.raw`^\s+\(\w+(?: [\d.]+)?\) \S+:\d+:`,
    String.raw`^\s+\d+:\s+(?:0x[0-9a-f]+ - )?\S+::`,
    // wasmtime's backtrace of a trapped module: `   12: 0x1d79194 - MistKitPackageTests.xctest!dlmalloc`.
    String.raw`^\s+\d+:\s+0x[0-9a-f]+ - \S+!\S`,
    // a Go frame's place, with the frame pointers a runtime `fatal error:` prints (`+0x95 fp=0x… sp=0x…`)
    String.raw`^\s+\S+\.go:\d+(?: \+0x[0-9a-f]+)?(?: fp=0x[0-9a-f]+ sp=0x[0-9a-f]+(?: pc=0x[0-9a-f]+)?)?$`,
    String.raw`^goroutine \d+ \[`,
    // a Go frame's function line, above its place: `main.(*T).f(0xc4200720c0, 0x15)`, `main.main()`, `created by
    // pkg.f` (Go prints a call's arguments as words, `0x…`, `...` or `{…}`, never as source)
    String.raw`^(?:created by [\w./-]+\.\S+|[\w./-]+\.[\w.()*-]+\((?:(?:0x[0-9a-f]+|\.\.\.|\{[^}]*\})(?:, (?:0x[0-9a-f]+|\.\.\.|\{[^}]*\}))*)?\))$`,
    String.raw`^\s+\S+\(.*\)\s+at \S+:\d+`,
    String.raw`^\s*\S+\.(?:pm|pl|t) line \d+`,
    String.raw`^\s+\.\.\. \d+ more$`,
    // Lua's traceback `\t./lua/pl/url.lua:45: in function 'unquote'`, and Tcl's `    (procedure "parray" line 9)` / `(file "a.tcl" line 3)`
    String.raw`^\s+\S+:\d+: in (?:function|main chunk|upvalue|local|method|field|metamethod)\b`,
    String.raw`^\s+\((?:procedure|file|method) "[^"]+" line \d+\)$`,
    String.raw`^Caused by: `,
    String.raw`^\s+\d+\s+\S+\s+0x[0-9a-f]+ `,
  ].join('|'),
);
export const isFrame = (text: string): boolean => text.length < 2000 && FRAME.test(text);

/**
 * A frame in a runtime (node's core modules: `(node:events:524:28)`), a test runner or an installed package: after the project's own frames, the rest of a trace is plumbing.
 * Kotest's engine and kotlinx.coroutines' dispatch under a Kotlin test's frames are such plumbing too, as JUnit's are.
 * A wasmtime frame (`N: 0xADDR - module!symbol`) names no source file: nothing of the project to pin, read as plumbing.
 * In a Go trace, the goroutine's heading and the runtime's and the test runner's calls (`runtime.throw(…)`,
 * `testing.tRunner(…)`, gimme's GOROOT `/.gimme/versions/go/src/…`, `go test`'s generated `_testmain.go`) are
 * plumbing around the program's frames.
 */
const EXTERNAL_FRAME = /\bat (?:[\w.-]+(?:@[\w.-]+)?\/\/?)?(?:java\.|javax\.|jdk\.|sun\.|kotlin\.|scala\.|org\.junit\.|junit\.|org\.testng\.|org\.apache\.maven\.|org\.apache\.tools\.ant\.|org\.springframework\.|org\.hibernate\.|org\.gradle\.|worker\.org\.gradle|org\.spockframework\.|io\.kotest\.|kotlinx\.coroutines\.|groovy\.|org\.codehaus\.groovy\.|java\.base\/|node:internal|process\.processTicksAndRejections|new Promise \(<anonymous>\)|Generator\.next)|node_modules\/|\(node:[\w/]+:\d|site-packages\/|dist-packages\/|\/lib\/python\d|\/usr\/lib\/|\/gems\/|\/\.cargo\/registry\/|\/rustc\/|\/go\/pkg\/mod\/|\/usr\/local\/go\/src\/|\/\.gimme\/versions\/|^goroutine \d+ \[|^(?:created by )?(?:runtime|testing|reflect|sync)\.|\/_testmain\.go:|\bruntime\/|<frozen |\(internal\/|\bat Object\.<anonymous> \(node_modules|^\s+\d+: (?:0x[0-9a-f]+ - )?(?:__rustc|core|std|alloc|test)::|^\s+\.\.\. \d+ more$|^\s+\d+:\s+0x[0-9a-f]+ - \S+!/;
export const isExternalFrame = (text: string): boolean => isFrame(text) && EXTERNAL_FRAME.test(text);

/** A source snippet under a diagnostic: `  12 | code`, `   |     ^^^`, `  --> src/x.rs:1:2`, `= note:`. */
const SNIPPET = /^\s*(?:>?\s*\d+\s*\||\|(?:\s|$)|-->\s|= (?:note|help):|\^[\^~]*\s*$|~+\^?~*\s*$|(?:note|help|hint):\s)/;
// A code frame marks the line it means with `>` (`> 24 |       data: {`: babel's, jest's, tsc's, Next.js's,
// Playwright's): that line is the frame's own, not a quote of something else.
export const isSnippet = (text: string): boolean => SNIPPET.test(text);

/** An assertion's comparison: expected/actual pairs, `+`/`-` diff lines, TAP's YAML diagnostics. */
const ASSERTION = new RegExp(
  [
    String.raw`^\s*(?:#\s+)?(?:Expected|Actual|Received|Got|Want|expected|actual|received|got|want|but was|to (?:be|equal|have|contain)|operator)\b\s*[:=]?`,
    String.raw`^\s*(?:-{3}|\+{3}) (?:Expected|Actual|expected|actual|a|b)\b`,
    // A unified diff's file headers with their times, as `diff -u` and black's `--check --diff` print them.
    String.raw`^(?:-{3}|\+{3}) \S+\t\d{4}-\d\d-\d\d \d\d:\d\d`,
    String.raw`^\s*[-+](?: |$)(?!.*\|)`,
    String.raw`^\s*@@ .* @@`,
    String.raw`^\s*(?:E\s{2,}|>\s{3})`,
    String.raw`\bexpected:?\s*<.*>\s*but was:?\s*<`,
    String.raw`\bexpected .* (?:to|but|got|, got)\b`,
  ].join('|'),
);
export const isAssertionLine = (text: string): boolean => text.length < 2000 && ASSERTION.test(text);

/** The title of one failing test, which the failure's details follow: `1) Foo::bar`, `● suite › test`, `--- FAIL: TestX`, `not ok 3 - x`. */
const TEST_TITLE =
  /^\s*(?:\d+\)\s+\S|●\s|--- FAIL:|not ok \d+|FAIL[: ]\s*\S|[✗✘✕×]\s|\[FAIL(?:ED)?\]|Failure:|Error:\s*$|ERROR:\s|FAILED\s|Failed\s+\S|test \S+ \.\.\. FAILED|\S+ > .* FAILED|=+ (?:FAIL|ERROR): )/;
export const isTestTitle = (text: string): boolean => text.length < 2000 && TEST_TITLE.test(text);

/** The opening of a failure summary: pytest's `FAILURES`, Maven's `Failed tests:`, `N failed`, `Summary of failures`. */
const SUMMARY_HEADER = new RegExp(
  [
    String.raw`^=+ (?:FAILURES|ERRORS|short test summary info|FAILED) =+$`,
    // Maven prints its summary sections under a log level: `[ERROR] Failures: `, `[ERROR] Errors:`.
    String.raw`^\[(?:ERROR|WARN(?:ING)?)\]\s+(?:Failures|Errors|Failed tests|Tests in error):\s*$`,
    // Minitest's and cargo's closing counts when something failed.
    String.raw`^\s*\d+ runs, \d+ assertions, (?:[1-9]\d* failures|\d+ failures, [1-9]\d* errors)`,
    String.raw`^test result: FAILED\.`,
    String.raw`^\s*(?:FAILURES!?|Failures:|Errors:|Failed tests:|Tests in error:|Failing tests?:|Failed examples:|Summary of failures:?|The following tests FAILED:|Test Summary Report|Failed Tests?(?: Summary)?:?|Tests with (?:errors|failures):)\s*$`,
    String.raw`^\s*There (?:was|were) \d+ (?:failures?|errors?):?$`,
    String.raw`^\s*\d+ (?:tests? )?(?:failed|failing|failures?)\b`,
    String.raw`^\s*(?:Test Suites|Tests):\s+\d+ failed`,
    String.raw`^\s*\d+ examples?, [1-9]\d* failures?`,
    String.raw`^\s*Tests run: \d+, Failures: [1-9]|Tests run: \d+, Failures: \d+, Errors: [1-9]`,
    String.raw`^\s*FAILED \((?:failures|errors)=\d+`,
    String.raw`^\s*Failed \d+/\d+ test`,
    String.raw`\b\d+ tests? failed\b|[1-9]\d* failed, \d+ passed|\d+ passed, [1-9]\d* failed`,
    // A formatter's check that failed (black, ruff format): `2 files would be reformatted, 3 files would be left unchanged.`
    String.raw`^\s*[1-9]\d* files? would be reformatted\b`,
    // ExUnit's sentence of counts (`1 doctest, 1 test, 2 failures`) and busted's (`0 successes / 1 failure / …`).
    String.raw`^\d+ (?:doctests?|propert(?:y|ies)|tests?)(?:, \d+ (?:doctests?|propert(?:y|ies)|tests?))*, [1-9]\d* failures?\b`,
    // eslint's sentence of counts under its reports, when it found errors: `✖ 2 problems (2 errors, 0 warnings)`.
    String.raw`^\s*✖ \d+ problems? \([1-9]\d* errors?, \d+ warnings?\)`,
    // cargo's closing count of a crate's errors: `error: could not compile \`x\` (lib) due to 2 previous errors`.
    String.raw`^error: could not compile \`[^\`]+\`.* due to \d+ previous errors?`,
    String.raw`^\d+ success(?:es)? / (?:[1-9]\d* failures? / \d+ errors?|\d+ failures? / [1-9]\d* errors?) / `,
  ].join('|'),
);
export const isSummaryHeader = (text: string): boolean => text.length < 2000 && SUMMARY_HEADER.test(text);

/** A line that is only a location (`/build/x/tests/FooTest.php:12`, `  at t/x.t line 4.`, vitest's pointer `❯ test/x.test.ts:23:28`): it belongs to the block above. */
const LOCATION_ONLY = /^\s*(?:[❯›→>] )?(?:\S+[\\/])?[\w.@+-]+\.\w{1,10}(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\)| line \d+\.?)\s*$/;
export const isLocationOnly = (text: string): boolean => text.length < 1000 && LOCATION_ONLY.test(text);

/** Leading whitespace width (a tab counts as 4): continuation lines are indented under their header. */
export function indentOf(text: string): number {
  let w = 0;
  for (const ch of text) {
    if (ch === ' ') w++;
    else if (ch === '\t') w += 4;
    else break;
  }
  return w;
}

/**
 * A tool's report of where it is, between the things it does: `docker compose up`'s resource states
 * (` Container web-1  Started`, ` Container db  Healthy`, ` Network app_default  Created`). Progress, not a
 * report: like a step marker, a block neither runs across it nor takes it in.
 */
const PROGRESS = /^\s*(?:Container|Network|Volume) \S+ +(?:Creating|Created|Starting|Started|Waiting|Healthy|Running|Recreate|Recreated|Stopping|Stopped|Removing|Removed)$/;
/**
 * A package manager's progress while it resolves and fetches (Go's `go: finding module for package x`, `go:
 * downloading x v1.2.0`, `go: found x in y v1`; cargo's right-aligned `   Compiling x v0.1.0`, `  Downloaded x`,
 * `    Updating crates.io index`; pip's `Collecting x`, `Using cached x`): what it was doing when the error
 * came, printed by passing runs too, never the error itself.
 */
const PROGRESS_LINE = /^go: (?:finding|downloading|found|extracting) \S|^\s+(?:Compiling|Downloading|Downloaded|Updating|Fetching|Locking|Checking) \S+|^\s*(?:Collecting|Using cached) \S/;
export const isProgressLine = (text: string): boolean => text.length < 500 && PROGRESS_LINE.test(text);
/** Markers a CI prints between steps or groups (and a tool's progress between its phases): a block never runs across one. */
export const isStepMarker = (text: string): boolean => /^(?:##\[(?:group|endgroup|section)\]|::(?:group|endgroup)::|section_(?:start|end):|travis_fold:|\[Pipeline\] )/.test(text) || PROGRESS.test(text);

/**
 * A compiler's or linter's diagnostic that names its own location (`a.c:12:5: error:`, `X.java:91: error:`,
 * `src/x.ts(4,26): error TS2307`): it opens its own block, so the snippet above it is the previous one's.
 */
const LOCATED_DIAGNOSTIC = /^\S*\.\w{1,10}(?::\d+(?::\d+)?:|\(\d+(?:,\d+)?\):?)\s*(?:fatal )?(?:error|warning)\b/i;
export const isLocatedDiagnostic = (text: string): boolean => text.length < 2000 && LOCATED_DIAGNOSTIC.test(text);

/** A shell's trace of the command it runs (`set -x`: `+ az login …`, `++ pwd`): what ran, not part of the error below it. */
const SHELL_TRACE = /^\+{1,3} [\w./~$"'-]/;
export const isShellTrace = (text: string): boolean => SHELL_TRACE.test(text);
/** A CI's or package runner's echo of the command it runs (Travis' `$ npm test`, yarn's `$ jest --coverage`): what ran, not the error below it. */
const DOLLAR_ECHO = /^\$ \S/;
export const isCommandEcho = (text: string): boolean => DOLLAR_ECHO.test(text);

/**
 * The machine, the network or a service the build talks to failed (not the project): refused or reset
 * connections, unreachable hosts, DNS, TLS, timeouts and stalls, a server's 5xx or rate limit, a full disk,
 * a killed or OOM-killed process, a time limit, a lost runner, credentials the CI holds that a service
 * refused, a CI tool left in a state it cannot run from. Read by the category stage, which counts it only
 * when it is the step's final error (src/extract/categorise-evidence.ts).
 */
export const INFRA_CAUSE = new RegExp(
  [
    // network and resolver, in the words of curl, git, the JVM, Node, Python, Go, apt and wget
    String.raw`[Cc]onnection (?:refused|reset|timed out|closed by|aborted)|[Cc]ouldn't connect to server|[Ff]ailed to connect to|[Cc]ould not connect to|[Nn]etwork is unreachable|[Nn]o route to host`,
    String.raw`[Cc]ould not resolve host|[Cc]ouldn't resolve host|[Tt]emporary failure (?:in name resolution|resolving)|[Nn]ame or service not known|[Nn]o address associated with hostname|nodename nor servname|UnknownHostException|\bgetaddrinfo\b|\bE(?:NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH|PIPE)\b`,
    String.raw`SSL(?:Error|HandshakeException|_ERROR|: )|TLS handshake|certificate verify failed|hostname in certificate didn't match|x509: certificate|unable to get local issuer certificate|SocketTimeoutException|ConnectException|[Rr]ead timed out|[Oo]peration timed out|i/o timeout|context deadline exceeded|ReadTimeoutError|ConnectTimeoutError|\bstalled\b`,
    String.raw`\b(?:50[0-4]|429) (?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out|Too Many Requests)\b|\b(?:HTTP|status(?: code)?|returned error:) ?(?:50[0-4]|429)\b|\b[Rr]ate limit(?:ed)? exceeded|API rate limit`,
    // disk, memory, signals and the runner
    String.raw`No space left on device|\bENOSPC\b|[Dd]isk quota exceeded|\bOOMKilled\b|[Oo]ut of memory|Cannot allocate memory|\bKilled\b(?: signal| process|\s*$)|killed by signal|signal 9\b|exit code 137\b|exceeded the maximum time limit|has exceeded the (?:maximum )?(?:execution )?time|[Tt]ime ?limit (?:exceeded|reached)|No output has been received in the last|lost communication|runner has received a shutdown signal|The operation was canceled`,
    // credentials the CI holds, refused by the service it talks to (or missing: the AWS CLI's `Unable to locate
    // credentials`, gcloud's `Could not automatically determine credentials`), and a CI tool not set up to run
    String.raw`[Ff]ailed to (?:deploy|publish|upload|push)\b.*\b(?:401|403)\b|\b(?:release|upload|publish|deploy|request|API call) failed with (?:HTTP )?status(?: code)?:? (?:401|403)\b|Resource not accessible by integration|[Aa]uthentication failed for|[Ee]rror authenticating|Permission denied \(publickey|[Cc]ould not read (?:Username|Password) for|[Bb]ad credentials|AADSTS\d+|No subscriptions found|\(AuthorizationFailed\)|Please run 'az login'|Unable to locate credentials|\bNoCredentials(?:Error)?\b|[Cc]ould not automatically determine credentials|remote: Permission to \S+ denied|unable to access '[^']*': The requested URL returned error: 40[13]\b|Please make sure you have the correct access rights|Cannot connect to the Docker daemon|Is the docker daemon running|not a swarm manager|'rvm reload'|RVM is not a function`,
    // a script's own wait that gave up after a while (a deploy waiting for an instance, a service to come up)
    String.raw`\b(?:after|since|for) \d+ (?:sec(?:ond)?s?|min(?:ute)?s?|hours?)\b.*\b(?:exiting|giving up|gave up|aborting)\b`,
    // apt's package index out of date on the image: its archives are gone from the mirror
    String.raw`Unable to fetch some archives|[Hh]ash [Ss]um mismatch|Some index files failed to download`,
    // the agent's account cannot raise its privileges: sudo asks for a password nobody can type
    String.raw`sudo: (?:a (?:terminal|password) is required|no tty present|sorry, you must have a tty)|is not in the sudoers file`,
    // git's transport dropped by the remote or the network mid-fetch (its `fatal:` says so, not the project)
    String.raw`[Tt]he remote end hung up unexpectedly|\bRPC failed; (?:curl|HTTP)|fetch-pack: (?:unexpected disconnect|expected shallow list|invalid index-pack output)|early EOF\s*$`,
  ].join('|'),
);

/**
 * What the failure is, in words many tools share, for evidence the older block rules
 * (evidence/classify-blocks.ts) leave unknown; checked in this order. Dependency: something the build
 * needs cannot be had (a package, version, artifact or download that is not there, a native extension
 * that will not build, a tool not installed, a vulnerable package a scanner refuses). Compile: the build
 * itself is broken (an undefined name, a build file or target that does not exist, a script the build
 * runs that is missing, an image build's failed step). Lint: style and format checks. Test: a run of the
 * code that reported failures.
 */
/**
 * A test runner's failure that it prints in a compiler's shape (CppUTest's `tests/a.cpp:39: error: Failure in
 * TEST(Group, Name)`): the words say a test failed, so it is read before the compile rules that shape would match.
 */
export const TEST_FAILURE_IN_COMPILER_SHAPE = /\b(?:Failure|Failed|Error) in TEST(?:_F|_P)?\(\w+, ?\w+\)/;

/**
 * An interpreter that could not load a module a program uses (Perl's `Can't locate Foo/Bar.pm in @INC (you may
 * need to install the Foo::Bar module)`, Python's `No module named 'x'`): whatever failed after it failed for
 * want of it. Read before the compile words, since Perl goes on `BEGIN failed--compilation aborted`.
 */
export const MODULE_NOT_LOADED = /Can't locate \S+ in @INC|\bModuleNotFoundError: No module named|\bImportError: No module named/;

export const CATEGORY_WORDS: readonly [Exclude<import('../types.js').Category, 'unknown' | 'infra'>, RegExp][] = [
  [
    'dependency',
    new RegExp(
      [
        MODULE_NOT_LOADED.source,
        String.raw`\bERROR 40[34]\b|\b40[34] (?:Not Found|Forbidden)\b|\b410 Gone\b|returned error: 40[34]\b|FileNotFoundException: https?:|[Ff]ailed to (?:download|fetch) \S|[Cc]ould not (?:download|fetch) \S|[Ee]rror downloading|[Dd]ownload failed|failed (?:hash|checksum) check|[Cc]hecksum (?:mismatch|failed|does not match)`,
        String.raw`Cannot open: No such file or directory|^tar: Error is not recoverable|not in gzip format|[Uu]nexpected end of (?:file(?! on )|archive)|[Nn]ot a (?:zip|gzip|tar) (?:file|archive)`,
        String.raw`Invalid requirement: |Error installing \S|Failed to build gem native extension|[Ff]ailed building wheel|[Cc]ould not build wheels|(?:[Ee]rror|ERROR): could not install|[Ii]nstallation (?:of \S+ )?failed|[Ff]ailed to install(?!:)|ERROR: Failed building|did not resolve to any crates|failed to resolve patches|failed to (?:select|load) a version|no matching package named|[Nn]o versions? (?:available|found|matching)|is not available for|[Rr]equested binary installation but no rubies|[Nn]o binary rubies available|[Uu]nable to locate package|[Nn]o package .* (?:found|available)|[Pp]ackage '?\S+'? (?:was )?not found|Package '[^']+', required by '[^']+', not found|Package requirements \(.*\) were not met|[Uu]nable to find image|manifest unknown|pull access denied|[Nn]o such (?:gem|package|module)\b`,
        // Meson's configure errors for what the build needs and the machine lacks (`meson.build:5:0: ERROR: Dependency
        // "boost" not found`, `C library 'gnutls' not found`, `python3 is missing modules: ply`): a dependency, not the code
        String.raw`\bDependency "[^"]+" not found\b|\bC(?:\+\+)? (?:shared )?library '[^']+' not found\b|\bis missing modules?: \S`,
        // (an unknown command reported at a file's line is a directive that file uses, not a program the machine
        // lacks: H2O's `[h2o/h2o.conf:17] unknown command: file.dir-listing`, compile below)
        String.raw`: command not found$|: not found$|is not recognized as an internal or external command|[Ee]xecutable (?:file )?not found|[Nn]o such command|(?<!\w:\d+\b[^\n]*)[Uu]nknown command`,
        String.raw`[Vv]ulnerabilit(?:y|ies) found|[Ii]ntroduced through:|\bCVE-\d{4}-\d+`,
        // a manifest checker's list of packages the code uses but the manifest does not declare (depcheck's
        // `Missing dependencies` over `* x: ./index.js`): the build wants a dependency
        String.raw`(?:^|\n)\s*[Mm]issing dependenc(?:y|ies):?[ \t]*(?:\n|$)`,
      ].join('|'),
    ),
  ],
  [
    'compile',
    new RegExp(
      [
        String.raw`Buildfile: \S+ does not exist|there is no POM in this directory|Target "[^"]+" does not exist|[Nn]o rule to make target|[Nn]o targets specified and no makefile|[Cc]ould not find or load main class|[Uu]nable to access jarfile |[Tt]ask '[^']+' not found in|[Pp]roject '[^']+' not found in|[Nn]o such (?:task|target)\b|[Uu]nknown (?:target|task|goal)\b`,
        // (an unknown tag is a template engine's: Nunjucks' `unknown block tag: endfor`, Liquid's `Unknown tag 'x'`)
        String.raw`\bundefined (?:secret|constant|macro)\b|is undefined or private|\bis (?:not defined|undefined)\b|[Uu]ndefined (?:reference|symbol|index|offset)|[Uu]n(?:known|recogni[sz]ed) (?:type|identifier|field|attribute|option|directive|command|property|keyword|setting|parameter|entry|(?:block )?tag)|[Ii]nvalid (?:syntax|configuration|template|value for)|[Mm]alformed|[Uu]nexpected (?:token|symbol|end of input|indent|character|EOF)|\bexpected (?:near|before|after)\b|cannot be resolved(?: to a type)?\b|\bnot found in (?:scope|this scope)`,
        String.raw`\bline \d+: \S+: No such file or directory$|^\S+: line \d+: \S+: No such file or directory`,
        // A parser's missing token (Lua's and Pascal's `'end' expected`): the word a test's comparison uses too, but quoting a token
        // (not a thing some other thing expects: Redocly's `` `{petId}` expected by path `/pets/{petId}` ``)
        String.raw`['"\`‘][^'"\`’\s]{1,20}['"\`’] expected\b(?! by\b)`,
        // or the punctuation it wanted (Stylus' `expected ")", got "indent"`): a test compares values, not brackets
        String.raw`\b[Ee]xpected ["'\`‘][^\w\s"'\`‘’]{1,3}["'\`’]`,
        // or, in the words of Bison's parsers and BibTeX, what it was expecting (`expecting ';'`, ``I was expecting a `,' ``)
        WANTED_PUNCTUATION.source,
        // or names it in words (ISC dhcpd's `line 55: semicolon expected.`)
        String.raw`\b(?:semicolon|comma|colon) expected\b`,
        // or says what it was expecting when the input stopped making sense (Hjson's `Found a punctuator character ':'
        // when expecting a quoteless string (check your syntax) at line 13,15`, JavaCC's `Was expecting one of:`, ANTLR's
        // and many hand-written parsers' `while expecting`): a parser's words, where a test says `expected`
        String.raw`\b(?:[Ww]hen|[Ww]hile|[Ww]as|[Ww]ere) expecting\b|\bcheck your syntax\b`,
        // or lists the tokens it could have taken there (i3's `ERROR: CONFIG: Expected one of these tokens: <end>, '#', …`)
        String.raw`\b[Ee]xpected one of (?:these |the following )?tokens\b`,
        // A reference that resolves to nothing: a JSON pointer or `$ref` (json-schema-ref-parser's `Token "NewPet" does
        // not exist.` under swagger-cli and every OpenAPI bundler built on it, `Error resolving $ref pointer`, openapi-
        // generator's `Could not resolve reference`): the document names what it does not define, as an undefined name
        String.raw`\bToken "[^"\n]+" does not exist\b|\$ref pointer\b|\b(?:[Cc]ould not|[Cc]an't|[Cc]annot|[Uu]nable to) resolve (?:\$ref|reference)\b`,
        // Go's YAML decoder (promtool's, and every Go tool's that reads a config: `yaml: unmarshal errors:` then
        // `line 41: field x not found in type config.ScrapeConfig`, `yaml: line 3: mapping values are not allowed`)
        String.raw`\byaml: (?:unmarshal errors|line \d+:)|\bfield \S+ not found in type\b`,
        // Python's json decoder (json.tool and every script that loads JSON) and a count of fatal errors (msgfmt's `found 1 fatal error`)
        String.raw`Expecting (?:property name enclosed in double quotes|value|',' delimiter|':' delimiter)|Unterminated string starting at|\b\d+ fatal errors?\b`,
        // A reader's quoted character it could not take, with its place (json5's `JSON5: invalid character '"' at
        // 12:3`, rsyslog's `invalid character '$' in object definition`): a parse error, as the decoders above
        String.raw`\binvalid character '\\?[^'\n]{1,2}' (?:at \d+:\d+|in )`,
        // Docutils' (and so Sphinx's) system messages: `a.rst:5: (ERROR/3) …`, `Exiting due to level-3 (ERROR) system message.`
        String.raw`\((?:ERROR|SEVERE)\/[34]\)|due to level-[34] \((?:ERROR|SEVERE)\) system message`,
        // A parser's exception class (PyYAML's `ParserError` / `ScannerError` under yq and every YAML loader, `SAXParseException`)
        String.raw`\b\w*(?:Parser|Scanner|Parse)(?:Error|Exception)\b`,
        // and a data format's loader's (js-yaml's `YAMLException: unidentified alias "x" (32:13)`, `TOMLError`)
        String.raw`\b(?:YAML|JSON|TOML|XML)\w*(?:Exception|Error)\b`,
        // or its words (pandoc's `YAML parse exception at line 1, column 22:`), and libyaml's and SnakeYAML's classic
        // `mapping values are not allowed in this context`
        String.raw`\b(?:YAML|JSON|TOML|XML) (?:parse|parser|parsing|syntax|scanner) (?:exception|error)\b|\bmapping values are not allowed\b`,
        String.raw`failed to solve|returned a non-zero code|did not complete successfully: exit code|ERROR \[[\w -]*\d+\/\d+\]|Template format error|[Vv]alidation (?:error|failed(?! with \d+ errors? and \d+ warnings?))|ValidationError|[Ss]chema (?:validation|error)`,
        // a compiler that says it gave up on a file without a diagnostic the rules above name (SBCL's `READ error
        // during COMPILE-FILE:` and `; compilation aborted after …`, ECL's `Unexpected end of file on #<input stream …>`,
        // CHICKEN's `unterminated list`, CLISP's `… is neither declared nor bound`)
        String.raw`\b(?:READ|[Rr]ead|[Rr]eader) error during \S+|\b[Cc]ompilation (?:unit )?aborted\b|\b[Uu]nterminated (?:list|string|comment|block|quote)\b|\b(?:were|was|are) not (?:defined|declared)\b|\bneither declared nor bound\b|\b[Uu]nexpected end of file on\b`,
        // an expander's unbound name at compile time (Racket's `a.rkt:132:15: x: unbound identifier`, R6RS Schemes'):
        // its `context...:` frames would otherwise count as a linter's list of reports
        String.raw`\bunbound identifier\b`,
        // a configuration parser's report that the file does not parse (Python's configparser, under fail2ban and every
        // tool that reads an .ini: `Source contains parsing errors: 'a.conf'` over `[line 280]: 'x'`), and a type
        // checker's closing verdict (ATS' `typechecking has failed: there are some unsolved constraints`)
        String.raw`\b(?:[Ss]ource|[Ff]ile) contains parsing errors?\b|\b[Tt]ype ?check(?:ing)? has failed\b|\bunsolved constraints?\b`,
        // an editor's script interpreter that stopped loading a script (Vim's and Neovim's `Error detected while
        // processing … script /x/plugin/a.vim:` over `line   38:` and its `E216: …`)
        String.raw`\bError detected while processing\b`,
        // a bracket a parser never saw closed, in words (pug's `The end of the string reached with no closing bracket )
        // found.`): its source text may follow in a dump of the error, whose words are the template's, not a category's
        String.raw`\bno closing (?:bracket|brace|paren(?:thesis)?)\b|\b(?:unclosed|unmatched|unbalanced) (?:bracket|brace|paren(?:thesis|theses)?)s?\b`,
        // a reader that ran out of input inside a form (MIT Scheme's `;Premature EOF on #[textual-input-port … for file: "…"]`)
        String.raw`\b[Pp]remature (?:EOF|end of (?:file|input))\b`,
        // a name nothing declares, in the words of compilers no rule above names (Raku's `===SORRY!=== Error while
        // compiling …` / `Undeclared routine:`, Thrift's `Service "x" has not been defined.`), and a server's
        // configuration check that stopped on its file (HAProxy's `Error(s) found in configuration file`)
        String.raw`\b[Uu]ndeclared (?:routines?|names?|variables?|identifiers?|types?|class(?:es)?)\b|\bError while compiling\b|\b(?:has|have) not been (?:defined|declared)\b|\b[Ee]rror(?:s|\(s\))? (?:were |was )?found in (?:the )?(?:config(?:uration)?\b|\S+\.(?:conf|cfg|cnf|ini)\b)`,
        // a named directive of a configuration file the program could not take (Privoxy's `Fatal error: Directive
        // 'buffer-limit' used with non-numerical value: '4M'`)
        String.raw`\b[Dd]irective ['"\`‘][\w.-]+['"\`’] (?:used with|has|needs|requires|expects|takes|is)\b`,
        // a server that stopped on its configuration file (Redis' `*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***`)
        String.raw`\b(?:CONFIG(?:URATION)? FILE ERROR|[Cc]onfig(?:uration)? file error)\b`,
        // TeX's engines stopping on the input (`! LaTeX Error: \begin{x} … ended by \end{y}.`, `! Package babel Error:`,
        // `! Undefined control sequence.`), and pdfTeX's closing `Fatal error occurred, no output PDF file produced!`
        String.raw`(?:^|\n)! (?:(?:La)?TeX|Package [\w-]+|Class [\w-]+) Error:|(?:^|\n)! Undefined control sequence\b|\bno output PDF file produced\b`,
      ].join('|'),
    ),
  ],
  [
    'lint',
    new RegExp(
      [
        String.raw`\btidy (?:error|check)|tidy checks failed|line longer than \d+|\bline too long\b|exceeds \d+ (?:characters|columns)|^Diff in \S+:\d+|needs? (?:re)?formatting|not (?:properly )?formatted|[Ww]ould (?:re)?format|[Ff]ormatting (?:issues|violations|differences)|[Cc]ode style issues|\bstyle (?:check|violation|error)s?\b|\b[A-Z]{1,4}\d{3,4}\b.*\b(?:violation|warning|error)\b|TODO is deprecated|\b(?:rule )?violations? (?:were |was )?found|unapproved licen[cs]es|\b(?:[Ff]ind[Bb]ugs|[Ss]pot[Bb]ugs|PMD|[Ee]rror ?[Pp]rone|apache-rat|license-maven-plugin)\b|\btypos?\b|\bspell(?:ing|check)\b|missing (?:copyright|licen[cs]e) header|[Uu]nsorted|[Ii]mports? (?:are|is) (?:incorrectly )?sorted`,
        // A report that ends with the id of the rule it broke, in parentheses (HTMLHint's `… on line 39. (tag-pair)`,
        // csslint's and other checkers' `(rule-name)`): a checker's finding, named by its rule
        // or before the place it ends with (markuplint's `error: The value of the "id" attribute is duplicated
        // (id-duplication) /x/index.html:34:54`)
        String.raw`\((?:[a-z][a-z0-9]*-)+[a-z][a-z0-9]*\)(?:\s+\S+:\d+(?::\d+)?)?\s*(?=\n|$)`,
        // or in brackets, as a category path and the checker's confidence (cpplint's `… [build/namespaces] [5]`), or as a
        // plugin's code joined to its name (Bandit's `>> Issue: [B602:subprocess_popen_with_shell_equals_true] …`)
        String.raw`\[(?:[a-z][a-z0-9_-]*\/)+[a-z][a-z0-9_-]*\]\s*\[\d\]\s*(?=\n|$)|\[[A-Z]{1,4}\d{2,4}:[a-z][a-z0-9]*(?:_[a-z0-9]+)+\]`,
        // A documentation check: a docstring or a doc comment missing or out of step with the code (pydocstyle's
        // `D103: Missing docstring in public function`, pylint's `Missing function or method docstring`, Doxygen's
        // `The following parameter of f(…) is not documented:`)
        String.raw`\b[Mm]issing\b[\w ]{0,30}\bdocstring\b|\b(?:is|are) not documented\b`,
        // A spell checker's finding: a word its dictionaries do not know (CSpell's `Readme.md:6:20 - Unknown word
        // (charaters) fix: (characters)`), or a word it names misspelled: prose, not code that fails to build
        String.raw`\bUnknown word \(|\b[Mm]isspell(?:ed|ings?)\b`,
        // A rule's code in a table column of its own (SQLFluff's `L:  36 | P:   1 | L010 | Keywords must be …`)
        String.raw`\|\s*[A-Z]{1,4}\d{2,4}\s*\|`,
        // PHP_CodeSniffer's report heading over its table of a file's violations (`FOUND 2 ERRORS AFFECTING 1 LINE`)
        String.raw`\bFOUND \d+ (?:ERRORS?|WARNINGS?)(?: AND \d+ WARNINGS?)? AFFECTING \d+ LINES?\b`,
        // A formatter's unified diff of a file (`shfmt -d`, `black --diff`, `gofmt -d`): the file's headers, then a hunk
        String.raw`^--- \S[^\n]*\n\+\+\+ \S[^\n]*\n@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@`,
        // A report headed by the code of the rule it broke, a fix mark may follow (ruff's `F821 Undefined name \`x\``,
        // `I001 [*] Import block is un-sorted`, its place below under an arrow): a linter's rule, as pycodestyle's E501
        String.raw`^[A-Z]{1,4}\d{2,4}(?: \[\*\])? [A-Z][a-z]`,
        // or after its place, the GNU header's way (doc8's `a.rst:14: D001 Line too long`), and a line too long in
        // any case
        String.raw`(?:^|\n)\S+:\d+(?::\d+)?: [A-Z]{1,4}\d{2,4} [A-Z][a-z]|\bLine too long\b`,
        // A documentation generator's check of its doc comments' tags (JSDoc's `ERROR: The @retrun tag is not a known
        // tag. File: index.js, line: 98`): the comments, not the code, as Doxygen's undocumented parameter
        String.raw`\bThe @[\w-]+ tag is not a known tag\b|\b(?:[Uu]nknown|[Ii]nvalid) (?:JSDoc |doc(?:umentation)? )tag\b`,
        // and of a doc comment's `@param` that names no parameter of its signature (TypeDoc's `The signature f has
        // an @param with name "x", which was not used`): the comment is out of step with the code, a doc lint
        String.raw`\bhas an @param with name "[^"\n]+", which was not used\b`,
        // A report naming the rule of a ruleset it broke (Redocly's `Error was generated by the path-parameters-defined
        // rule.`): a linter's finding, whatever its severity
        String.raw`\b(?:Error|Warning|Problem) was generated by the [a-z][a-z0-9]*(?:-[a-z0-9]+)+ rule\b`,
        // A prose linter's repeated word (write-good's `"the" is repeated on line 47 at column 59`)
        String.raw`^"[^"\n]+" is repeated\b|\n"[^"\n]+" is repeated\b`,
        // A module graph's cycle (madge's `Found 1 circular dependency!`, import/no-cycle's `Dependency cycle
        // detected`) and a copy/paste detector's clones (jscpd's `Clone found`, `too many duplicates … over
        // threshold`): a check of the code's structure, not a build that failed
        String.raw`\b[Cc]ircular (?:dependency|dependencies|imports?)\b|\b[Dd]ependency cycles? detected\b|\bClones? found\b|\bFound \d+ clones?\b|\btoo many duplicates\b`,
        // A checker's tally of the rules its findings broke (dependency-cruiser's `x 1 dependency violations (1 errors, 0
        // warnings)`, Checkstyle's `There are 3 checkstyle violations`, conftest's `2 policy violations`), and a finding
        // headed by its severity and its rule's kebab-case name (dependency-cruiser's `error no-circular: a.js → b.js`,
        // the `warn not-to-unresolvable:` of the same family): violations of a project's rules, not a broken build
        String.raw`\b\d+ (?:[a-z]+ )?violations?\b|(?:^|\n)\s*(?:error|warn|warning|info) [a-z][a-z0-9]*(?:-[a-z0-9]+)+: \S`,
      ].join('|'),
    ),
  ],
  [
    'test',
    new RegExp(
      [
        String.raw`\b\d+ (?:of \d+ )?(?:tests?|specs?|examples?|checks?|cases?) (?:failed|failing)\b|\bfailed \d+ (?:of|out of) \d+\b|\btests? (?:failed|failure)|\bexpected\b.*\b(?:got|but|actual|received|found)\b|[Aa]ssertion|[Ss]moke test|[Hh]ealth ?check failed|\bcoverage\b.*\b(?:below|less than|threshold|fail)`,
      ].join('|'),
    ),
  ],
  // A CI pipeline script the project wrote that does not compile or names a step that does not exist
  // (Jenkins' `WorkflowScript: 38: …`, `No such DSL method 'x' found among steps`): its build file is broken.
  [
    'compile',
    new RegExp(
      [String.raw`No such DSL method '[^']+' found|\bWorkflowScript: \d+: |MultipleCompilationErrorsException: startup failed`].join('|'),
    ),
  ],
];

/**
 * A unified diff's file headers and hunk header (`--- a.sh.orig` / `+++ a.sh` / `@@ -10,8 +10,8 @@`): what a
 * formatter in check mode prints for a file it would change.
 */
export const DIFF_OLD_FILE = /^--- (\S+)/;
export const DIFF_NEW_FILE = /^\+\+\+ (\S+)/;
export const DIFF_HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
/** A line inside a hunk: context, removed, added, or git's no-newline note. */
export const DIFF_BODY = /^(?:[ +-]|\\ No newline)|^$/;

/**
 * A report that opens with its place and a message (`src/a.py:10:1: 'x' imported but unused`, codespell's
 * `docs/a.rst:89: recieve ==> receive`): the GNU header, unindented, naming a file (a dot or a slash).
 */
export const PLACE_REPORT = /^(?:[\w.@~+-]*\/)*[\w@+-][\w.@~+-]*\.[\w+-]{1,10}:\d+(?:[:.]\d+)?: \S/;
/**
 * Words that say a report is about a fault, with or without a severity (the generic matcher reads the same). A value
 * outside its bounds (OpenNTPD's `weight must be between 1 and 10`) and an entry that does not balance (bean-check's
 * `Transaction does not balance`) state a fault as plainly as `invalid`; so does a name or number given twice where
 * one is allowed (buf's and protoc's `field number \`8\` used more than once`, `"x" is already defined`, Go's
 * `x redeclared in this block`, `defined multiple times`), which `duplicate` says in other tools' words.
 */
export const FAULT_WORDS =
  /\b(?:expected|unexpected|unknown|undefined|undeclared|missing|invalid|cannot|can't|unable|not (?:found|defined|declared|allowed|closed|supported)|unsupported|(?:not|neither) (?:a |an )?valid|no such|unterminated|unmatched|unbalanced|unclosed|illegal|bad|duplicate|redefined|mismatch(?:ed|es)?|too (?:many|few)|out of range|syntax|malformed|(?:does|do|did|could) not balance|must be (?:between|one of|at (?:least|most)|(?:less|greater|more|fewer) than)|more than once|multiple times|already (?:defined|declared|used|exists)|redeclared)\b/i;
