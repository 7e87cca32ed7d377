import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { Language, Parser, Query } from 'web-tree-sitter';

/** The grammars shipped in `@vscode/tree-sitter-wasm` that Redline tags with (C is parsed by the C++ grammar). */
export type GrammarId =
  | 'typescript'
  | 'tsx'
  | 'javascript'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'c-sharp'
  | 'cpp'
  | 'ruby'
  | 'php'
  | 'bash';

export const GRAMMAR_IDS: readonly GrammarId[] = [
  'typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c-sharp', 'cpp', 'ruby', 'php', 'bash',
];

const BY_EXTENSION: Record<string, GrammarId> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript',
  tsx: 'tsx',
  // The JavaScript grammar parses JSX as well.
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  cs: 'c-sharp',
  // C has no grammar of its own in the package; the C++ grammar parses ordinary C.
  c: 'cpp', h: 'cpp', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp',
  rb: 'ruby',
  php: 'php',
  sh: 'bash', bash: 'bash',
};

/** The grammar for a file by its extension, or null when Redline has none (the text tagger applies). */
export function grammarFor(file: string): GrammarId | null {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? null;
}

/** A grammar ready to tag with: the language, a parser set to it, and its compiled tag query. */
export interface LoadedGrammar {
  id: GrammarId;
  language: Language;
  parser: Parser;
  query: Query;
}

const requireFrom = createRequire(import.meta.url);
let runtime: Promise<void> | undefined;
const loaded = new Map<GrammarId, Promise<LoadedGrammar>>();
const sources = new Map<string, string>();

/**
 * The grammar's wasm: next to this module when it is bundled (the Action's dist/action, which ships it
 * gzipped: the 12 grammars are 20.5 MB raw, 1.8 MB gzipped), else the package's.
 */
function grammarWasm(id: GrammarId): string | Uint8Array {
  const beside = fileURLToPath(new URL(`./tree-sitter-${id}.wasm`, import.meta.url));
  if (existsSync(beside)) return beside;
  if (existsSync(`${beside}.gz`)) return gunzipSync(readFileSync(`${beside}.gz`));
  return requireFrom.resolve(`@vscode/tree-sitter-wasm/wasm/tree-sitter-${id}.wasm`);
}

/** Starts the tree-sitter runtime once per process. */
function initRuntime(): Promise<void> {
  runtime ??= Parser.init();
  return runtime;
}

/**
 * The grammar, its parser and its tag query, loaded on first use and shared afterwards (one promise per
 * language, so concurrent callers wait for the same load). Rejects when the wasm or the query is broken.
 */
export function loadGrammar(id: GrammarId): Promise<LoadedGrammar> {
  let p = loaded.get(id);
  if (!p) {
    p = (async () => {
      await initRuntime();
      const language = await Language.load(grammarWasm(id));
      const query = new Query(language, querySource(id));
      const parser = new Parser();
      parser.setLanguage(language);
      return { id, language, parser, query };
    })();
    // A failed load is not cached: the next caller gets a fresh attempt (and the text fallback meanwhile).
    p.catch(() => loaded.delete(id));
    loaded.set(id, p);
  }
  return p;
}

/**
 * The tag query text for a grammar: `queries/<id>.scm` with the files named on its `; inherits: a, b`
 * lines prepended (their patterns come first, so on a tie a more general pattern loses to no one).
 * Read next to this module, which works from `src/` (vitest) and from `dist/` (copied by the build).
 */
export function querySource(name: string, seen: Set<string> = new Set()): string {
  const cached = sources.get(name);
  if (cached !== undefined) return cached;
  if (seen.has(name)) throw new Error(`queries/${name}.scm inherits itself (cycle through ${[...seen].join(' → ')})`);
  seen.add(name);
  const own = readFileSync(new URL(`./queries/${name}.scm`, import.meta.url), 'utf8');
  const parents: string[] = [];
  for (const m of own.matchAll(/^;\s*inherits:\s*(.+)$/gm)) {
    for (const parent of (m[1] ?? '').split(',')) if (parent.trim()) parents.push(querySource(parent.trim(), seen));
  }
  const full = [...parents, own].join('\n');
  sources.set(name, full);
  return full;
}

const queryHashes = new Map<string, string>();

/** A short hash of a grammar's full query text: part of the cache key, so editing a .scm invalidates its tags. */
export function queryHash(id: GrammarId): string {
  let h = queryHashes.get(id);
  if (!h) {
    h = createHash('sha1').update(querySource(id)).digest('hex').slice(0, 12);
    queryHashes.set(id, h);
  }
  return h;
}
