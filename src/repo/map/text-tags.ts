import type { DefKind, Definition, FileTags, Reference } from './types.js';
import { MAX_LINE_CHARS } from '../../limits.js';
import { CONTAINER_KINDS, MAX_DEFS_PER_FILE, MAX_REFS_PER_FILE, cleanSignature, sortRefs } from './tag-shape.js';

/**
 * The text tagger: what a file gives without a syntax tree (no grammar, a parse that failed or is too
 * broken, a file too big to parse). Definitions come from the header lines most languages share
 * (`function f`, `class C`, `def f`, `func (r T) f`, `fn f`, `Type name(...)`), their extent and container
 * from indentation; references are every identifier-looking word. Rough, never a throw.
 */
export function textTags(file: string, text: string, lang: string | null): FileTags {
  const lines = text.split(/\r?\n/);
  const defs: Definition[] = [];
  const refs: Reference[] = [];
  const seenRefs = new Set<string>();
  // Open definitions by indentation: a line indented no deeper than a definition's header closes it.
  const open: { indent: number; def: Definition }[] = [];
  let lastNonBlank = 0;

  const close = (upTo: number, line: number, lineText: string, indent: number) => {
    while (open.length && open[open.length - 1]!.indent >= indent) {
      const top = open.pop()!;
      // `}` / `end` at the header's indentation is the definition's last line; anything else starts after it.
      const closer = top.indent === indent && /^(?:[}\])]|end\b)/.test(lineText.trimStart());
      top.def.endLine = Math.max(top.def.line, closer ? line : upTo);
      if (closer) return true;
    }
    return false;
  };

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const n = i + 1;
    if (raw.length > MAX_LINE_CHARS || !raw.trim()) continue;
    const trimmed = raw.trimStart();
    const indent = raw.length - trimmed.length;
    // A lone `{` (C-style brace on its own line) continues the header above, and `public:` is a label
    // inside a C++ class: neither closes anything.
    const consumed = trimmed.startsWith('{') || /^(?:public|private|protected)\s*:/.test(trimmed) ? false : close(lastNonBlank, n, raw, indent);
    lastNonBlank = n;
    const found = consumed ? undefined : matchDefinition(trimmed, indent);
    let defName: string | undefined;
    if (found && defs.length < MAX_DEFS_PER_FILE) {
      const parent = open[open.length - 1]?.def;
      let kind = found.kind;
      let container = found.container;
      if (!container && parent) {
        container = CONTAINER_KINDS.has(parent.kind) ? parent.name : parent.container ? `${parent.container}.${parent.name}` : parent.name;
      }
      if (kind === 'function' && (found.container || (parent && CONTAINER_KINDS.has(parent.kind) && parent.kind !== 'module'))) kind = 'method';
      const def: Definition = { name: found.name, kind, line: n, endLine: n, signature: cleanSignature(trimmed) };
      if (container) def.container = container;
      defs.push(def);
      defName = found.name;
      open.push({ indent, def });
    }
    for (const m of trimmed.matchAll(IDENT)) {
      const name = m[0];
      if (name === defName || KEYWORDS.has(name) || refs.length >= MAX_REFS_PER_FILE) continue;
      const key = `${n}\0${name}`;
      if (seenRefs.has(key)) continue;
      seenRefs.add(key);
      refs.push({ name, line: n });
    }
  }
  for (const o of open) o.def.endLine = Math.max(o.def.line, lastNonBlank);
  return { file, lang, defs, refs: sortRefs(refs), parsed: false };
}

const IDENT = /[A-Za-z_$][\w$]*/g;
const ID = '[A-Za-z_$][\\w$]*';

interface Found {
  name: string;
  kind: DefKind;
  container?: string;
}

const TYPE_WORDS: Record<string, DefKind> = {
  class: 'class', record: 'class', object: 'class', interface: 'interface', enum: 'enum', struct: 'struct',
  union: 'struct', trait: 'trait', module: 'module', namespace: 'module', mod: 'module', impl: 'class',
};

const RULES: [RegExp, (m: RegExpExecArray, indent: number) => Found | undefined][] = [
  // JS/TS/PHP/Bash `function f`.
  [new RegExp(`^(?:export\\s+)?(?:default\\s+)?(?:(?:public|private|protected|static|final|abstract|async)\\s+)*function\\s*\\*?\\s*(${ID})`), (m) => ({ name: m[1]!, kind: 'function' })],
  // Type-like blocks in most languages: `export abstract class C`, `pub struct S`, `module M`, `impl T`.
  [
    new RegExp(`^(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:pub(?:\\([^)]*\\))?\\s+)?(?:(?:public|private|protected|internal|static|sealed|final|abstract|partial|data|open)\\s+)*(class|record|object|interface|enum|struct|union|trait|module|namespace|mod|impl)\\s+(?:<[^>]*>\\s*)?(?:(?:class|struct)\\s+)?(${ID}(?:(?:\\.|::)${ID})*)(.*)$`),
    (m) => {
      // `struct header *out` is a C type in use, not a definition: a definition opens a body or ends.
      if (/^(?:enum|struct|union)$/.test(m[1]!) && !/^\s*(?:$|[{:(<;]|where\b)/.test(m[3]!)) return undefined;
      return { name: m[2]!.split(/\.|::/).pop()!, kind: TYPE_WORDS[m[1]!] ?? 'class' };
    },
  ],
  // Python / Ruby `def f`, `def self.f`.
  [/^(?:async\s+)?def\s+(?:self\.)?([A-Za-z_]\w*[?!=]?)/, (m) => ({ name: m[1]!, kind: 'function' })],
  // Go `func f`, `func (p *Parser) f`.
  [
    /^func\s+(?:\(\s*\w*\s*\*?\s*([A-Za-z_]\w*)[^)]*\)\s*)?([A-Za-z_]\w*)/,
    (m) => (m[1] ? { name: m[2]!, kind: 'method', container: m[1] } : { name: m[2]!, kind: 'function' }),
  ],
  // Rust `pub async fn f`.
  [/^(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+([A-Za-z_]\w*)/, (m) => ({ name: m[1]!, kind: 'function' })],
  // TS / Go type declarations.
  [/^(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_]\w*)(.*)$/, (m) => ({ name: m[1]!, kind: /\bstruct\b/.test(m[2]!) ? 'struct' : /\binterface\b/.test(m[2]!) ? 'interface' : 'type' })],
  // `const f = (…) =>`, `let f = async function`.
  [
    new RegExp(`^(?:export\\s+)?(?:const|let|var)\\s+(${ID})\\s*(?::[^=]*)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]*)?=>|${ID}\\s*=>)`),
    (m) => ({ name: m[1]!, kind: 'function' }),
  ],
  // Constants: `export const MAX = …`, `MAX_DEPTH = 3` (Python/Ruby), `#define MAX 3`, `const MaxDepth = 3` (Go).
  [/^(?:export\s+)?(?:pub\s+)?(?:const|static)\s+([A-Za-z_]\w*)\s*[:=]/, (m, indent) => (indent === 0 ? { name: m[1]!, kind: 'constant' } : undefined)],
  [/^([A-Z][A-Z0-9_]*)\s*=[^=]/, (m) => ({ name: m[1]!, kind: 'constant' })],
  [/^#\s*define\s+([A-Za-z_]\w*)(\()?/, (m) => ({ name: m[1]!, kind: m[2] ? 'function' : 'constant' })],
  // Bash `name() {`.
  [/^([A-Za-z_][\w-]*)\s*\(\)\s*\{?\s*$/, (m) => ({ name: m[1]!, kind: 'function' })],
  // JS/TS class methods: `async parseHeader(text: string): Header {` (indented, no keyword before the name).
  [
    /^(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*\*?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^)]*\)\s*(?::\s*[^{=;]+)?\{\s*$/,
    (m, indent) => (indent > 0 && !NOT_A_TYPE.has(m[1]!) && !/^(?:function|constructor)$/.test(m[1]!) ? { name: m[1]!, kind: 'function' } : undefined),
  ],
  // C-family functions and methods: a return type, a name, an open parameter list, no `;` or `=` before it.
  [
    /^(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|synchronized|native|extern|inline|sealed|unsafe|partial|const|constexpr)\s+)*([\w<>[\],.?*&:]+(?:\s+[\w<>[\],.?*&:]+)*)\s+[*&]*(?:([A-Za-z_]\w*)::)?(~?[A-Za-z_]\w*)\s*\([^;=]*$/,
    (m) => {
      const first = m[1]!.split(/\s+/)[0]!;
      if (NOT_A_TYPE.has(first) || NOT_A_TYPE.has(m[3]!)) return undefined;
      return m[2] ? { name: m[3]!, kind: 'method', container: m[2] } : { name: m[3]!, kind: 'function' };
    },
  ],
];

/** Words that start statements, not declarations: `return f(x)` and `else if (…)` are not headers. */
const NOT_A_TYPE = new Set(['return', 'if', 'else', 'for', 'while', 'switch', 'case', 'catch', 'new', 'delete', 'throw', 'sizeof', 'do', 'await', 'yield', 'goto', 'echo', 'print', 'not', 'and', 'or', 'in', 'is', 'assert', 'raise', 'typeof', 'using', 'import', 'from', 'package', 'when', 'export', 'elif', 'puts', 'unless', 'until', 'defer', 'go', 'function', 'foreach', 'elseif', 'lock', 'fixed', 'synchronized']);

function matchDefinition(trimmed: string, indent: number): Found | undefined {
  if (trimmed.startsWith('//') || trimmed.startsWith('#!') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return undefined;
  if (trimmed.startsWith('#') && !/^#\s*define\b/.test(trimmed)) return undefined;
  for (const [re, make] of RULES) {
    const m = re.exec(trimmed);
    if (m) {
      const f = make(m, indent);
      if (f) return f;
    }
  }
  return undefined;
}

/** Keywords of the languages we tag: words in every file, never a link between files. */
const KEYWORDS = new Set(
  (
    'if else elif for while do switch case default break continue return function func fn def class struct enum ' +
    'interface trait impl mod module namespace package import from export as use using var let const static public ' +
    'private protected internal final abstract override virtual async await yield new delete this self super true ' +
    'false null nil None True False undefined void int float double bool boolean string char long short byte ' +
    'try catch finally throw throws raise except with lambda pass end then fi done esac in is not and or typeof ' +
    'instanceof extends implements type pub mut ref match where unsafe extern go defer chan select range map ' +
    'include define ifdef ifndef endif require echo local readonly'
  ).split(' '),
);
