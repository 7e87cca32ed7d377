import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** Longer lines are serialized blobs (a swift-frontend command line), not a diagnostic: skipping them bounds the regexes. */
const MAX_LINE = 4000;
/** Lines under a diagnostic kept as related: the source line and caret, or Swift 5.9's numbered excerpt. */
const MAX_RELATED = 12;
// swiftc, `swift build` and xcodebuild: `/src/Sources/App/File.swift:51:38: error: cannot find type 'X' in scope`.
// The column is always there: `File.swift:7: error: -[Suite test] : …` is an XCTest assertion, xctest.ts reads it.
const DIAGNOSTIC = /^(.+?\.swift):(\d+):(\d+): (error|warning): (.*)$/;
// SwiftPM's swiftbuild backend puts the severity first: `error: /src/File.swift:14:23 cannot find type 'X' in scope`.
const SWIFTBUILD = /^(error|warning): (\S.*?\.swift):(\d+):(\d+) (.*)$/;
// Under a diagnostic: the source line and `^~~~` (Swift ≤ 5.8), or `12 |     code` / `   |     `- error: …` (5.9+).
const CARET = /^\s*\^[~^]*\s*$/;
const EXCERPT = /^\s*\d*\s+\|/;
// Another package's sources, checked out by SwiftPM or Xcode: a real error, but not this repository's line.
const DEPENDENCY = /\/\.build\/checkouts\/|\/SourcePackages\/checkouts\/|\/Pods\//;

/**
 * Reads the Swift compiler's diagnostics (`File.swift:12:5: error: message`, and SwiftPM's swiftbuild form
 * `error: File.swift:12:5 message`) with the source excerpt beneath as related. Errors are compile failures;
 * those in a dependency's checkout weigh less, warnings little.
 */
export const swiftcMatcher: Matcher = {
  id: 'swiftc',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.includes('.swift:')) continue;
      const d = DIAGNOSTIC.exec(text);
      const b = d ? null : SWIFTBUILD.exec(text);
      if (!d && !b) continue;
      const [path, line, column, severity, message] = d ? [d[1]!, d[2]!, d[3]!, d[4]!, d[5]!] : [b![2]!, b![3]!, b![4]!, b![1]!, b![5]!];
      const related: number[] = [];
      // Swift ≤ 5.8: one source line, then the caret. 5.9+: numbered lines around it.
      for (let j = i + 1; j < lines.length && related.length < MAX_RELATED; j++) {
        const t = lines[j]!.text;
        if (t.trim() === '' || DIAGNOSTIC.test(t) || SWIFTBUILD.test(t)) break;
        if (EXCERPT.test(t)) {
          related.push(lines[j]!.n);
          continue;
        }
        if (related.length === 0 && !CARET.test(t) && CARET.test(lines[j + 1]?.text ?? '')) {
          related.push(lines[j]!.n, lines[j + 1]!.n);
        } else if (CARET.test(t)) related.push(lines[j]!.n);
        break;
      }
      const error = severity === 'error';
      out.push({ kind: 'diagnostic', path, line: Number(line), column: Number(column), message: message.trim(), tool: 'swiftc',
        severity: error ? 'error' : 'warning', category: 'compile', weight: !error ? 0.3 : DEPENDENCY.test(path) ? 0.6 : 1,
        logLine: lines[i]!.n, related });
    }
    return out;
  },
};
