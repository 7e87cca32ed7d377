import type { DefKind, Reference } from './types.js';

/** Tags kept per file: past this a file is generated code or data, and more names only add noise. */
export const MAX_DEFS_PER_FILE = 5_000;
/** References kept per file (one per name and line): bounds the cache entry and the reference graph. */
export const MAX_REFS_PER_FILE = 20_000;
/** A signature is a one-line header for a map or a comment; longer is a parameter list worth cutting. */
export const MAX_SIGNATURE_CHARS = 200;

export const DEF_KINDS: ReadonlySet<string> = new Set<DefKind>([
  'function', 'method', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'constant', 'variable', 'field',
]);

/** Kinds that name a scope for what is defined inside them (`Parser` in `Parser.parseHeader`). */
export const CONTAINER_KINDS: ReadonlySet<DefKind> = new Set<DefKind>(['class', 'interface', 'struct', 'trait', 'enum', 'module']);

/**
 * A header as one trimmed line: whitespace runs collapsed, the body opener at the end (`{`, `:`, `=>`,
 * `=`, `;`, `do`) and leading annotations removed, cut to MAX_SIGNATURE_CHARS with an ellipsis.
 */
export function cleanSignature(header: string): string {
  // Annotations before a Java/C# header are metadata, not the signature.
  let s = header.replace(/\s+/g, ' ').trim().replace(/^(?:@[\w.]+(?:\([^)]*\))?\s+)+/, '');
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replace(/\s*(?:\{\s*\}|\{|=>|:|=|;|\bdo)$/, '').trimEnd();
  }
  if (s.length > MAX_SIGNATURE_CHARS) s = s.slice(0, MAX_SIGNATURE_CHARS - 1).trimEnd() + '…';
  return s;
}

/** References in a stable order: by line, then by name (the cache round trip keeps this order). */
export function sortRefs(refs: Reference[]): Reference[] {
  return refs.sort((a, b) => a.line - b.line || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
