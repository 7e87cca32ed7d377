import type { Node, Tree } from 'web-tree-sitter';
import type { DefKind, Definition, FileTags, Reference } from './types.js';
import type { LoadedGrammar } from './languages.js';
import { CONTAINER_KINDS, DEF_KINDS, MAX_DEFS_PER_FILE, MAX_REFS_PER_FILE, MAX_SIGNATURE_CHARS, cleanSignature, sortRefs } from './tag-shape.js';

/** A tree is too broken to trust when more than this share of its text sits in ERROR nodes... */
export const MAX_ERROR_SHARE = 0.1;
/** ...or when it has more error and missing nodes than this, or one per MAX_ERROR_LINES_PER_NODE lines. */
export const MAX_ERROR_NODES = 20;
export const MAX_ERROR_LINES_PER_NODE = 25;
/** A header longer than this many lines is a parameter list; its first line says enough. */
const MAX_HEADER_LINES = 12;

/** True when the parse recovered from so many errors that its definitions are guesses. */
export function tooBroken(tree: Tree, lineCount: number): boolean {
  const root = tree.rootNode;
  if (!root.hasError) return false;
  const total = Math.max(1, root.endIndex - root.startIndex);
  let errorChars = 0;
  let errorNodes = 0;
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      if (descend && cursor.gotoFirstChild()) {
        // entered a child
      } else {
        while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return decide();
      }
      const n = cursor.currentNode;
      descend = true;
      if (n.isError) {
        errorChars += n.endIndex - n.startIndex;
        errorNodes++;
        descend = false;
      } else if (n.isMissing) errorNodes++;
      else if (!n.hasError) descend = false;
    }
  } finally {
    cursor.delete();
  }
  function decide(): boolean {
    return errorChars / total > MAX_ERROR_SHARE || errorNodes > Math.max(MAX_ERROR_NODES, lineCount / MAX_ERROR_LINES_PER_NODE);
  }
}

interface Candidate {
  kind: DefKind;
  pattern: number;
  node: Node;
  nameNode: Node;
  explicitContainer?: string;
}

interface Scope {
  start: number;
  end: number;
  name: string;
  kind: DefKind | 'scope';
  def?: Definition;
}

/** Definitions and references of a parsed file, from the grammar's tag query (queries/<lang>.scm). */
export function treeTags(file: string, g: LoadedGrammar, tree: Tree, text: string): FileTags {
  const byName = new Map<string, Candidate>();
  const scopes: Scope[] = [];
  const refNodes: { name: string; line: number; at: string }[] = [];
  for (const m of g.query.matches(tree.rootNode)) {
    let def: { kind: string; node: Node } | undefined;
    let name: Node | undefined;
    let containerName: string | undefined;
    let container: Node | undefined;
    for (const c of m.captures) {
      if (c.name === 'name') name = c.node;
      else if (c.name.startsWith('definition.')) def = { kind: c.name.slice(11), node: c.node };
      else if (c.name === 'container.name') containerName = c.node.text;
      else if (c.name === 'container') container = c.node;
      else if (c.name === 'name.reference' || c.name.startsWith('name.reference.')) {
        if (refNodes.length < MAX_REFS_PER_FILE * 2) refNodes.push({ name: c.node.text, line: c.node.startPosition.row + 1, at: `${c.node.startIndex}:${c.node.endIndex}` });
      }
    }
    if (def && name && DEF_KINDS.has(def.kind)) {
      const key = `${name.startIndex}:${name.endIndex}`;
      const prev = byName.get(key);
      if (!prev || m.patternIndex < prev.pattern) {
        byName.set(key, { kind: def.kind as DefKind, pattern: m.patternIndex, node: def.node, nameNode: name, explicitContainer: containerName });
      }
    } else if (container && containerName) {
      scopes.push({ start: container.startIndex, end: container.endIndex, name: containerName, kind: 'scope' });
    }
  }

  const defs: Definition[] = [];
  const items: Scope[] = [...scopes];
  for (const c of [...byName.values()].sort((a, b) => a.node.startIndex - b.node.startIndex).slice(0, MAX_DEFS_PER_FILE)) {
    const start = c.node.startPosition.row;
    const end = c.node.endPosition.column === 0 && c.node.endPosition.row > start ? c.node.endPosition.row - 1 : c.node.endPosition.row;
    const d: Definition = {
      name: cleanName(c.nameNode.text),
      kind: c.kind,
      line: start + 1,
      endLine: end + 1,
      signature: signatureOf(c.node, c.kind, text),
    };
    if (c.explicitContainer) d.container = cleanName(c.explicitContainer);
    defs.push(d);
    items.push({ start: c.node.startIndex, end: c.node.endIndex, name: d.name, kind: c.kind, def: d });
  }
  assignContainers(items);

  // A name at its own definition is not a use of it.
  const defNames = new Set([...byName.keys()]);
  const refs: Reference[] = [];
  const seen = new Set<string>();
  for (const r of refNodes) {
    if (defNames.has(r.at) || refs.length >= MAX_REFS_PER_FILE) continue;
    const key = `${r.line}\0${r.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push({ name: r.name, line: r.line });
  }
  defs.sort((a, b) => a.line - b.line || b.endLine - a.endLine);
  return { file, lang: g.id, defs, refs: sortRefs(refs), parsed: true };
}

/**
 * Sets each definition's container from the nearest enclosing definition or scope (a Rust `impl`): a
 * class-like parent gives its name (and turns a function into a method), a function parent its
 * qualified name (`Parser.parseHeader` for a helper nested in that method).
 */
function assignContainers(items: Scope[]): void {
  items.sort((a, b) => a.start - b.start || b.end - a.end);
  const stack: Scope[] = [];
  for (const it of items) {
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const strictlyInside = top.start <= it.start && it.end <= top.end && !(top.start === it.start && top.end === it.end);
      if (strictlyInside) break;
      stack.pop();
    }
    const parent = stack[stack.length - 1];
    const d = it.def;
    if (d) {
      // An explicit container (`func (p *T) f`, `T::f`) makes a method wherever it is written.
      if (d.container && d.kind === 'function') d.kind = 'method';
      if (parent) {
        const classLike = parent.kind === 'scope' || (CONTAINER_KINDS.has(parent.kind as DefKind) && parent.kind !== 'module');
        if (!d.container) {
          if (parent.kind === 'scope' || CONTAINER_KINDS.has(parent.kind as DefKind)) d.container = parent.name;
          else if (parent.def && (parent.kind === 'function' || parent.kind === 'method')) {
            d.container = parent.def.container ? `${parent.def.container}.${parent.def.name}` : parent.def.name;
          }
        }
        if (d.kind === 'function' && classLike) d.kind = 'method';
      }
    }
    // Only definitions that can hold others are scopes: two names declared by one statement are siblings.
    if (it.kind === 'scope' || CONTAINER_KINDS.has(it.kind as DefKind) || it.kind === 'function' || it.kind === 'method') stack.push(it);
  }
}

/** Quotes and sigils off a captured name: `"fs"` (a TS ambient module), `:sym`. */
function cleanName(s: string): string {
  return s.replace(/^["'`:]+|["'`]+$/g, '').slice(0, 200);
}

/**
 * The definition's header as written: from the start of its line (keeping `export`, `pub`, `type`
 * that the node itself leaves out) to where its body begins, on one line.
 */
function signatureOf(node: Node, kind: DefKind, text: string): string {
  const lineStart = text.lastIndexOf('\n', node.startIndex - 1) + 1;
  const prefix = text.slice(lineStart, node.startIndex);
  const from = /^[^{};=()]*$/.test(prefix) && prefix.trim().length <= 60 ? lineStart : node.startIndex;
  const body = findBody(node, kind === 'function' || kind === 'method' ? 3 : 0);
  let to: number;
  if (body && body.startIndex > node.startIndex && body.startPosition.row - node.startPosition.row <= MAX_HEADER_LINES) {
    to = body.startIndex;
  } else {
    // No body (a field, a constant, a prototype): the first line, cut where a `{` opens one.
    const eol = text.indexOf('\n', node.startIndex);
    to = Math.min(eol < 0 ? text.length : eol, node.endIndex);
    const brace = text.slice(node.startIndex, to).indexOf('{');
    if (brace > 0) to = node.startIndex + brace;
  }
  return cleanSignature(text.slice(from, Math.min(to, from + 4 * MAX_SIGNATURE_CHARS)));
}

/**
 * The node where a definition's body starts: its `body` field, or for a function bound to a name
 * (`const f = () => {…}`, a C declarator) the body of its value, looked for through `value`,
 * `declarator` and `definition` links only, so a constant's initialiser is never mistaken for a body.
 */
function findBody(node: Node, maxDepth: number): Node | null {
  let level: Node[] = [node];
  for (let depth = 0; depth <= maxDepth && level.length; depth++) {
    const next: Node[] = [];
    for (const n of level) {
      const b = n.childForFieldName('body');
      if (b) return b;
      for (const f of ['value', 'declarator', 'definition']) {
        const c = n.childForFieldName(f);
        if (c) next.push(c);
      }
      for (const c of n.namedChildren) if (c && c.type.endsWith('declarator')) next.push(c);
    }
    level = next.slice(0, 8);
  }
  return null;
}
