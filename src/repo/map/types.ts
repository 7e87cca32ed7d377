/**
 * What the code-intelligence layer knows about a file: its definitions (with signatures and line
 * ranges) and the names it references. Produced by tree-sitter tag queries (queries/<lang>.scm), or by
 * a text fallback when a file has no grammar or fails to parse.
 */

export type DefKind =
  | 'function'
  | 'method'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'struct'
  | 'trait'
  | 'module'
  | 'constant'
  | 'variable'
  | 'field';

export interface Definition {
  name: string;
  kind: DefKind;
  /** 1-based, inclusive. */
  line: number;
  endLine: number;
  /** The definition's header as written (one line, trimmed, body cut): `export function parseDate(s: string): Date`. */
  signature: string;
  /** The enclosing class / impl / module name, when there is one (`Parser` for `Parser.parseHeader`). */
  container?: string;
}

export interface Reference {
  name: string;
  /** 1-based. */
  line: number;
}

export interface FileTags {
  /** Repo-relative, `/`. */
  file: string;
  /** Grammar id ('typescript', 'python', ...) or null when no grammar applies. */
  lang: string | null;
  defs: Definition[];
  refs: Reference[];
  /** False when the text fallback produced these tags (no grammar, parse failure, too big). */
  parsed: boolean;
}
