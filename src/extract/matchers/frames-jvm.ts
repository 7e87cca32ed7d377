import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** One parsed JVM stack frame: `at com.a.B.m(B.java:12)`. */
export interface JvmFrame {
  /** `com.a.B.m`, without the class-loader / module prefix. */
  symbol: string;
  /** `com.a.B`: the declaring class (an inner class keeps its `$Inner`). */
  className: string;
  /** Package folders + file name (`com/a/B.java`): a frame names only the file, the package says where. */
  path: string;
  line: number;
}

// Long lines are serialized blobs, not frames: skip them before any regex runs.
const MAX_FRAME_LINE = 1000;
// `at [loader//][module@version/]pkg.Cls.method(File.java:12)`; Kotlin/Scala/Groovy frames have the same shape.
const FRAME =
  /^\s*at (?:[\w.-]+\/\/)?(?:[\w.-]+(?:@[\w.+-]+)?\/)?([\w$.<>-]+)\(([\w$-]+\.(?:java|kt|kts|scala|groovy)|WorkflowScript):(\d+)\)\s*$/;
// Jenkins compiles the pipeline's Jenkinsfile as a Groovy script it calls `WorkflowScript`, with no
// extension: `at WorkflowScript.run(WorkflowScript:38)` is line 38 of the Jenkinsfile at the checkout's
// root (mapped onto the repo like any path, so a checkout without one gets no location).
const JENKINS_SCRIPT = 'WorkflowScript';
const JENKINSFILE = 'Jenkinsfile';
// Gradle's test report puts the cause's exception on the line below a bare `Caused by:`.
const CAUSED_BY = /^\s*Caused by:(?: \S|\s*$)/;
const BLOCK_END = /^\[(?:INFO|ERROR|WARNING)\]|^> Task /;
// Frames a PR never changes: the JDK, test runners and build tools. Still evidence, never the pin.
const LIBRARY_PREFIXES = [
  'java.',
  'javax.',
  'jdk.',
  'sun.',
  'com.sun.',
  'kotlin.',
  'kotlinx.',
  'scala.',
  'groovy.',
  'org.codehaus.groovy.',
  'org.junit.',
  'junit.',
  'org.opentest4j.',
  'org.assertj.',
  'org.hamcrest.',
  'org.mockito.',
  'org.testng.',
  'org.apache.maven.',
  'org.gradle.',
  'worker.org.gradle.',
  'org.springframework.',
];

/** Parses one `at …(File.java:N)` line; null for native/unknown-source frames and other text. */
export function parseJvmFrame(text: string): JvmFrame | null {
  if (text.length > MAX_FRAME_LINE) return null;
  const m = FRAME.exec(text);
  if (!m) return null;
  const symbol = m[1]!;
  const file = m[2]!;
  if (file === JENKINS_SCRIPT) return { symbol, className: JENKINS_SCRIPT, path: JENKINSFILE, line: Number(m[3]) };
  const dot = symbol.lastIndexOf('.');
  if (dot <= 0) return null;
  const className = symbol.slice(0, dot);
  const pkgEnd = className.lastIndexOf('.');
  const pkg = pkgEnd > 0 ? className.slice(0, pkgEnd) : '';
  const path = pkg ? `${pkg.replace(/\./g, '/')}/${file}` : file;
  return { symbol, className, path, line: Number(m[3]) };
}

/** True for frames in the JDK, test frameworks and build tools. */
export function isJvmLibraryFrame(symbol: string): boolean {
  return LIBRARY_PREFIXES.some((p) => symbol.startsWith(p));
}

/** Reads JVM stack frames (`\tat com.a.B.m(B.java:12)`, with loader/module prefixes) and `Caused by:` lines. */
export const jvmFramesMatcher: Matcher = {
  id: 'jvm-frame',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    // The `Caused by:` line names the exception a person quotes; it belongs to the first repo frame
    // under it (the deepest cause is usually where the bug is), so it rides along as related.
    let cause: number | undefined;
    for (const l of lines) {
      const t = l.text;
      // Cheap pre-check: most log lines contain neither marker, so they never reach a regex.
      if (t.includes('at ') && t.includes(')')) {
        const f = parseJvmFrame(t);
        if (f) {
          const library = isJvmLibraryFrame(f.symbol);
          const signal: Signal = {
            kind: 'frame',
            path: f.path,
            line: f.line,
            symbol: f.symbol,
            message: t.trim(),
            tool: 'jvm-frame',
            weight: library ? 0.05 : 0.6,
            logLine: l.n,
          };
          if (cause !== undefined && !library) {
            signal.related = [cause];
            cause = undefined;
          }
          out.push(signal);
          continue;
        }
      }
      if (t.length <= MAX_FRAME_LINE && CAUSED_BY.test(t)) cause = l.n;
      // A blank or build-tool line ends the exception block (a cause's message may span lines), so a
      // cause never reaches into the next test's trace.
      else if (t.trim() === '' || BLOCK_END.test(t) || t.endsWith(' FAILED')) cause = undefined;
    }
    return out;
  },
};
