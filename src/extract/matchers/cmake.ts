import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Message lines kept per error: CMake's longest (a missing package config) is about 15. */
const MAX_BLOCK = 30;
// `CMake Error at CMakeLists.txt:5 (find_package):`, `CMake Error in src/CMakeLists.txt:`, `CMake Warning (dev) at x.cmake:3 (message):`.
const HEADER = /^CMake (Error|Warning(?: \(dev\))?|Deprecation Warning) (?:at|in) (.+?)(?::(\d+))?(?: \((\w+)\))?:$/;
const BARE = /^CMake Error: (.*)$/;
// `Call Stack (most recent call first):` then `  CMakeLists.txt:4 (find_package)`, innermost first.
const CALL = /^\s+(\S.*?):(\d+) \((\w+)\)$/;
// CMake's own modules: the error is raised there, but the project's call is what a PR changed.
const CMAKE_MODULE = /^\/usr\/(?:local\/)?share\/cmake[^/]*\/|\/share\/cmake-\d[^/]*\/Modules\/|^\/opt\/|\/hostedtoolcache\//;
const MISSING_PACKAGE = /Could NOT find |Could not find a package configuration file|No package '.*' found|Could not find a configuration file for package|A required package was not found/;

/** Reads CMake configure/generate errors: the `CMake Error at file:line (command):` block and its call stack, pinned to the project's own call. */
export const cmakeMatcher: Matcher = {
  id: 'cmake',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE || !text.startsWith('CMake ')) continue;
      const h = HEADER.exec(text);
      const bare = h ? null : BARE.exec(text);
      if (!h && !bare) continue;
      const related: number[] = [];
      const message: string[] = bare ? [bare[1]!] : [];
      const calls: { path: string; line: number; command?: string }[] = [];
      const block: string[] = [];
      // The message is indented two spaces; a blank line inside it is part of it, two in a row or an
      // unindented line end it.
      let j = i + 1;
      for (; j < lines.length && related.length < MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (t === '' && (lines[j + 1]?.text ?? '') === '') break;
        if (t !== '' && !t.startsWith(' ') && !t.startsWith('Call Stack')) break;
        if (t === '') continue;
        related.push(lines[j]!.n);
        const c = CALL.exec(t);
        if (c && !t.startsWith('    ')) calls.push({ path: c[1]!, line: Number(c[2]), command: c[3] });
        else if (!t.startsWith('Call Stack')) {
          block.push(t.trim());
          if (message.length < 3) message.push(t.trim());
        }
      }
      const at = h?.[3] ? { path: h[2]!, line: Number(h[3]), command: h[4] } : undefined;
      const own = [at, ...calls].find((c) => c && !CMAKE_MODULE.test(c.path));
      const warning = !!h && h[1] !== 'Error';
      // A missing package is said in the middle of a paragraph; that sentence is the message.
      const k = block.findIndex((b) => MISSING_PACKAGE.test(b));
      const said = k >= 0 ? block.slice(k, k + 2).join(' ') : message.join(' ');
      const s: Signal = { kind: 'diagnostic', message: said || text, tool: 'cmake', severity: warning ? 'warning' : 'error',
        category: k >= 0 ? 'dependency' : 'compile', weight: warning ? 0.3 : 1, logLine: n, related };
      if (own) Object.assign(s, { path: own.path, line: own.line });
      if (own?.command) s.symbol = own.command;
      out.push(s);
      i = j - 1;
    }
    return out;
  },
};
