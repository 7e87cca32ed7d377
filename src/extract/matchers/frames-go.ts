import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
const GOROUTINE = /^goroutine \d+ \[[^\]]*\]:$/;
const PANIC = /^(?:panic: |fatal error: )/;
// The second line of a frame: `\t/abs/path/file.go:25 +0x16e` (the pc offset is absent for inlined calls). The
// runtime's `fatal error:` (`concurrent map writes`) prints the crashing goroutine's frame pointers after it
// (`… +0x95 fp=0xc4200dfae8 sp=0xc4200dfac8`, and `pc=0x…` in later Go): the same frame.
const LOCATION = /^\t(\S.*\.go):(\d+)(?: \+0x[0-9a-f]+)?(?: fp=0x[0-9a-f]+ sp=0x[0-9a-f]+(?: pc=0x[0-9a-f]+)?)?$/;
// GOROOT and the module cache: where a panic passes through but a PR's bug does not live.
// (`/.gimme/versions/go1.x/src/`: the GOROOT of gimme, the Go installer of Travis CI and others.)
const LIBRARY_PATH =
  /(?:\/\.gimme\/versions\/[^/]+\/src\/|\/usr\/lib\/go[^/]*\/src\/|\/usr\/local\/go\/src\/|\/hostedtoolcache\/go\/|\/sdk\/go[\d.]+\/src\/|\/goroot\/src\/|\/pkg\/mod\/|\/vendor\/|^\$GOROOT\/|^GOROOT\/)/;
const RUNTIME_SYMBOL = /^(?:runtime|testing|reflect|sync|internal\/[\w/]+)\.|^panic\(/;

/**
 * `example.com/m/ring.(*Ring).Samples(...)` → `Ring.Samples`: the package path is in the file path
 * already, and the bare receiver + method is what a grep in the repo finds.
 */
export function goSymbol(fnLine: string): string {
  let s = fnLine.trim().replace(/^created by /, '').replace(/ in goroutine \d+$/, '');
  const args = s.lastIndexOf('(');
  if (s.endsWith(')') && args > 0 && s[args - 1] !== '.') s = s.slice(0, args);
  const slash = s.lastIndexOf('/');
  if (slash >= 0) s = s.slice(slash + 1);
  const dot = s.indexOf('.');
  if (dot > 0 && !s.startsWith('(')) s = s.slice(dot + 1);
  return s.replace(/^\(\*?([^)]+)\)\./, '$1.');
}

/** `go test`'s generated main package (`…/_test/_testmain.go`): the runner's, not the project's. */
const TESTMAIN = /(?:^|\/)_testmain\.go$/;

function isLibraryFrame(path: string, fnLine: string): boolean {
  const fn = fnLine.trim().replace(/^created by /, '');
  return LIBRARY_PATH.test(path) || TESTMAIN.test(path) || RUNTIME_SYMBOL.test(fn);
}

/** Reads Go panic traces: `panic: …`, `goroutine N [running]:`, then `pkg.fn(…)` + `\t/path/x.go:12 +0x1d` pairs. */
export const goPanicMatcher: Matcher = {
  id: 'go-panic',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let panicLine: number | undefined;
    let inTrace = false;
    let panicShown = false;
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) {
        inTrace = false;
        continue;
      }
      if (PANIC.test(text)) {
        panicLine = n;
        panicShown = false;
        continue;
      }
      if (GOROUTINE.test(text)) {
        inTrace = true;
        continue;
      }
      if (!inTrace) continue;
      const loc = i + 1 < lines.length ? LOCATION.exec(lines[i + 1]!.text) : null;
      if (!loc || text.startsWith('\t') || text === '') {
        // A blank line separates goroutines; anything else that is not a frame ends the trace.
        if (text !== '' && !text.startsWith('\t')) inTrace = false;
        continue;
      }
      const path = loc[1]!;
      const library = isLibraryFrame(path, text);
      const signal: Signal = {
        kind: 'frame',
        path,
        line: Number(loc[2]),
        symbol: goSymbol(text),
        message: `${text.trim()} at ${path}:${loc[2]}`,
        tool: 'go-panic',
        weight: library ? 0.05 : 0.6,
        logLine: lines[i + 1]!.n,
        related: [n],
      };
      // The panic message belongs with the first frame of the program itself: that is where it was raised.
      if (!library && panicLine !== undefined && !panicShown) {
        signal.related!.push(panicLine);
        panicShown = true;
      }
      out.push(signal);
      i++;
    }
    return out;
  },
};
