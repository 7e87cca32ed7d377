import type { Workspace } from './workspace.js';

/** Test files by the conventions of the runners we read (Cucumber's and behave's step definitions and features too). */
const TEST_FILE =
  /(^|\/)(__tests__|tests?|spec|specs|testing)\/|(^|\/)features\/(step_definitions|steps|support)\/|\.feature$|\.(test|spec)\.[cm]?[jt]sx?$|_test\.(go|py)$|(^|\/)test_[^/]*\.py$|Tests?\.(java|kt|cs)$|_spec\.rb$|_test\.rb$|(^|\/)tests\/[^/]*\.rs$/;

/** True when the path looks like a test file rather than the code under test. */
export function isTestFile(file: string): boolean {
  return TEST_FILE.test(file);
}

const JS_IMPORT = /(?:import\s[^'"]*?from\s*|import\s*\(?\s*|require\s*\(\s*|export\s[^'"]*?from\s*)['"]([^'"]+)['"]/g;
// The names: one line, or a parenthesised list over several lines (as black formats long imports).
const PY_FROM = /^\s*from\s+(\.*[\w.]*)\s+import\s+(\([^)]*\)|[\w, *]+)/gm;
const PY_IMPORT = /^\s*import\s+([\w.]+)/gm;
const RUBY_REQ = /require(_relative)?\s*\(?\s*['"]([^'"]+)['"]/g;
const JAVA_IMPORT = /^\s*import\s+(?:static\s+)?([\w.]+)\s*;/gm;
const RUST_USE = /\b(?:use|mod)\s+(?:crate::)?([\w:]+)/g;

// `#include "ringbuf/ringbuf.hpp"` and `#include <mylib/x.h>`: the quoted form is the project's own, the
// angled one is too when the repo has the file (a header-only library's tests include it with -Iinclude).
const C_INCLUDE = /^\s*#\s*include\s*["<]([^">]+)[">]/gm;
const C_FILE = /\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|h\+\+|ipp|inl|tpp|m|mm|cu|cuh)$/;

const RUST_BUILTIN = new Set(['std', 'core', 'alloc', 'super', 'self', 'crate']);

const JS_EXT = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '/index.ts', '/index.js', '/index.tsx'];

/**
 * The repo files a file imports (one level), resolved by each language's rules closely enough to follow
 * a failing test to the code it exercises. Unresolvable imports (packages, the standard library) are
 * skipped.
 */
export function importsOf(ws: Workspace, file: string): string[] {
  const lines = ws.lines(file);
  if (!lines) return [];
  const text = lines.join('\n');
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  const out = new Set<string>();
  const add = (p: string | undefined) => {
    if (p && p !== file && ws.fileSet.has(p)) out.add(p);
  };
  if (/\.[cm]?[jt]sx?$/.test(file)) {
    for (const m of text.matchAll(JS_IMPORT)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue;
      const base = join(dir, spec).replace(/\.js$/, '');
      const hit = JS_EXT.map((e) => base + e).find((p) => ws.fileSet.has(p)) ?? JS_EXT.map((e) => join(dir, spec) + e).find((p) => ws.fileSet.has(p));
      add(hit ?? folderEntry(ws, join(dir, spec)));
    }
  } else if (file.endsWith('.py')) {
    for (const m of text.matchAll(PY_FROM)) {
      const mod = m[1]!;
      const names = m[2]!.replace(/#.*$/gm, '').replace(/[()\s]/g, '').split(',');
      const dots = /^\.*/.exec(mod)![0].length;
      let baseDir = dir;
      for (let i = 1; i < dots; i++) baseDir = baseDir.includes('/') ? baseDir.slice(0, baseDir.lastIndexOf('/')) : '';
      const modPath = mod.slice(dots).replace(/\./g, '/');
      const roots = dots ? [baseDir] : ['', 'src', 'lib', dir];
      for (const r of roots) {
        const p = join(r, modPath);
        add(pyModule(ws, p));
        for (const n of names) add(pyModule(ws, join(p, n)));
      }
    }
    for (const m of text.matchAll(PY_IMPORT)) for (const r of ['', 'src', 'lib', dir]) add(pyModule(ws, join(r, m[1]!.replace(/\./g, '/'))));
  } else if (file.endsWith('.go')) {
    // Go: a test sees its whole package; the package is the folder.
    for (const f of ws.files) if (f.endsWith('.go') && dirOf(f) === dir && !f.endsWith('_test.go')) add(f);
  } else if (file.endsWith('.rb')) {
    for (const m of text.matchAll(RUBY_REQ)) {
      const spec = m[2]!.replace(/\.rb$/, '') + '.rb';
      add(m[1] ? join(dir, spec) : (['lib/' + spec, spec].find((p) => ws.fileSet.has(p)) ?? undefined));
    }
  } else if (/\.(java|kt)$/.test(file)) {
    for (const m of text.matchAll(JAVA_IMPORT)) {
      const suffix = m[1]!.replace(/\./g, '/');
      for (const ext of ['.java', '.kt']) for (const f of ws.byBase.get(suffix.slice(suffix.lastIndexOf('/') + 1) + ext) ?? []) if (f.endsWith(suffix + ext)) add(f);
    }
    // Same package: classes used without import.
    const tail = samePackageTail(dir);
    for (const f of ws.files) {
      const d = dirOf(f);
      if (/\.(java|kt)$/.test(f) && (d === tail || (tail !== '' && d.endsWith('/' + tail)))) add(f);
    }
  } else if (C_FILE.test(file)) {
    for (const m of text.matchAll(C_INCLUDE)) add(resolveInclude(ws, dir, m[1]!));
  } else if (file.endsWith('.rs')) {
    const crate = crateName(ws);
    for (const m of text.replace(/\/\/.*$/gm, '').matchAll(RUST_USE)) {
      const first = m[1]!.split('::')[0]!;
      if (RUST_BUILTIN.has(first)) continue;
      const own = ['src/' + first + '.rs', 'src/' + first + '/mod.rs', join(dir, first + '.rs')].find((p) => ws.fileSet.has(p));
      // `use mycrate::x` from tests/ or a binary: the crate's library root (not for other crates: serde, clap...).
      const isOwnCrate = crate === undefined || first === crate;
      add(own ?? (isOwnCrate && ws.fileSet.has('src/lib.rs') ? 'src/lib.rs' : undefined));
    }
  }
  // By name: foo.test.ts ↔ foo.ts, test_foo.py ↔ foo.py, foo_test.go ↔ foo.go, FooTest.java ↔ Foo.java.
  for (const s of sourceNamesFor(file)) for (const f of ws.byBase.get(s) ?? []) if (!isTestFile(f)) add(f);
  return [...out];
}

function sourceNamesFor(file: string): string[] {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const names: string[] = [];
  let m: RegExpExecArray | null;
  if ((m = /^(.*)\.(test|spec)\.([cm]?[jt]sx?)$/.exec(base))) for (const e of ['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs']) names.push(`${m[1]}.${e}`);
  if ((m = /^test_(.*)\.py$/.exec(base)) || (m = /^(.*)_test\.py$/.exec(base))) names.push(`${m[1]}.py`);
  if ((m = /^(.*)_test\.go$/.exec(base))) names.push(`${m[1]}.go`);
  if ((m = /^(.*)Tests?\.(java|kt|cs)$/.exec(base))) names.push(`${m[1]}.${m[2]}`);
  if ((m = /^(.*)_(spec|test)\.rb$/.exec(base))) names.push(`${m[1]}.rb`);
  return names;
}

/** The root Cargo.toml's package name as Rust code spells it (`-` → `_`), when there is one. */
function crateName(ws: Workspace): string | undefined {
  const lines = ws.lines('Cargo.toml');
  if (!lines) return undefined;
  let inPackage = false;
  for (const l of lines) {
    const section = /^\s*\[([^\]]+)\]/.exec(l);
    if (section) inPackage = section[1]!.trim() === 'package';
    const name = inPackage ? /^\s*name\s*=\s*["']([^"']+)["']/.exec(l) : null;
    if (name) return name[1]!.replace(/-/g, '_');
  }
  return undefined;
}

/** An #include's file in the repo: beside the includer first, then any file whose path ends with the spec (an -I directory). */
function resolveInclude(ws: Workspace, dir: string, spec: string): string | undefined {
  const beside = join(dir, spec);
  if (ws.fileSet.has(beside)) return beside;
  if (ws.fileSet.has(spec)) return spec;
  const base = spec.slice(spec.lastIndexOf('/') + 1);
  const hits = (ws.byBase.get(base) ?? []).filter((f) => f === spec || f.endsWith('/' + spec));
  // Two headers of one name in different -I roots: the include says nothing about which one.
  return hits.length === 1 ? hits[0] : undefined;
}

function pyModule(ws: Workspace, p: string): string | undefined {
  return [p + '.py', p + '/__init__.py'].find((x) => ws.fileSet.has(x));
}

function dirOf(f: string): string {
  return f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '';
}

/** src/test/java/com/a → com/a: the package part of a JVM source folder. */
function samePackageTail(dir: string): string {
  const m = /(?:^|\/)(?:java|kotlin)\/(.*)$/.exec(dir);
  return m ? m[1]! : dir;
}

/**
 * What `require('../')` or `import '..'` loads: the folder's package.json `main`, else its index file. A test
 * of a one-file package reaches it this way (minimist's `var parse = require('../')`); the root folder is ''.
 */
function folderEntry(ws: Workspace, folder: string): string | undefined {
  const prefix = folder ? `${folder}/` : '';
  const manifest = ws.lines(`${prefix}package.json`)?.join('\n');
  let main: string | undefined;
  try {
    const m = manifest ? (JSON.parse(manifest) as { main?: unknown }).main : undefined;
    if (typeof m === 'string') main = join(folder, m);
  } catch {
    // a package.json that does not parse names no entry: the index file below still may
  }
  const tries = [...(main !== undefined ? JS_EXT.map((e) => main + e) : []), ...['index.js', 'index.ts', 'index.mjs', 'index.cjs'].map((f) => prefix + f)];
  return tries.find((p) => ws.fileSet.has(p));
}

function join(a: string, b: string): string {
  const parts = (a ? a.split('/') : []).concat(b.split('/'));
  const out: string[] = [];
  for (const p of parts) {
    if (!p || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return out.join('/');
}
