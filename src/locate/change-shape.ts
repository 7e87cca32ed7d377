import type { Hunk } from '../repo/diff.js';

/**
 * How a changed line changed, as a prior for "did this change break a test that used to pass". A line
 * that was edited in place (an operator flipped, a number or default tweaked, a call swapped) changes
 * existing behaviour; a line that only adds a new function, test or comment rarely breaks an old test.
 */
export interface LineShape {
  n: number;
  text: string;
  /** Added next to removed code (an edit), rather than purely added. */
  edited: boolean;
  /** Prior in [-0.3, 0.35]: positive for behaviour-changing edits, negative for pure additions. */
  prior: number;
  /** Why, for the evidence. */
  reason: string;
  /** A rename, a reformat, a log or error-message rewording: it cannot change what the code computes. */
  neutral?: boolean;
  /** Literal values the edit removed and added (unquoted): `'-'` → `'_'` gives ['-'] and ['_']. */
  valuesGone: string[];
  valuesCame: string[];
  /** The hunk only took code away (or left it commented out): the line is where the code was, `text` the code. */
  removedOnly?: boolean;
}

const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|'[^']*'|"[^"]*"|`[^`]*`|[<>!=]=?=?|&&|\|\||[-+*/%]=?|\?\?|[()[\]{}.,;:?]/g;
const OPERATOR = /^(?:[<>!=]=?=?|&&|\|\||[-+*/%]=?|\?\?)$/;
const LITERAL = /^(?:\d[\w.]*|'[^']*'|"[^"]*"|`[^`]*`|true|false|null|None|nil)$/;
const DEFINITION = /^\s*(?:export\s+)?(?:pub\s+)?(?:async\s+)?(?:def|fn|func|function|class|interface|struct|impl|module|it|test|describe|@Test|public|private|protected)\b/;
const IDENT = /^[A-Za-z_$][\w$]*$/;
const LOGGING = /\b(?:log|logger|logging|console|print|println|printf|eprintln|debug|info|warn|warning|trace|slog)\b\s*[.(!]/;
const ERROR_MESSAGE = /\b(?:throw|raise|panic!?|Error|Exception|errors\.New|fmt\.Errorf|bail!|anyhow!)\b/;
const CONDITION = /\b(?:if|elif|elsif|unless|when|while|guard|else)\b|&&|\|\||[<>]=?|[!=]==?/;
const PUNCT = /^[()[\]{}.,;:?]$/;
/** A declaration with no body: `String resultSets() default "";`, `void run() throws IOException;`. */
const BODILESS = /^(?!\s*(?:return|throw|yield|await|assert|else|case|delete|print)\b)\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?!new\b)[\w.<>[\],?]+\s+)+\w+\s*\([^)]*\)\s*(?:throws\s+[\w.,\s]+)?(?:default\s+[^;]+)?;\s*$/;
/** A line of brackets only (the end of a removed block). */
const PUNCT_LINE = /^[\s()[\]{};,]+$/;
// `%%`/`% text` are Erlang, Prolog, LaTeX and MATLAB comments (`% 2` would be a wrapped modulo: not one); `;;` Lisp's.
const COMMENT = /^\s*(?:\/\/|#|\*|\/\*|--|"""|'''|%%|%\s+[A-Za-z]|;;)/;

function tokens(s: string): string[] {
  return s.match(TOKEN) ?? [];
}

function jaccard(a: string[], b: string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  let inter = 0;
  for (const x of A) if (B.has(x)) inter++;
  const union = A.size + B.size - inter;
  return union ? inter / union : 0;
}

/** The shape of each code line the hunk adds, scored as a prior for breaking existing behaviour. */
export function shapeOfHunk(h: Hunk, renames: ReadonlyMap<string, string> = renamesIn([h])): LineShape[] {
  const removed = h.removed.filter((r) => r.trim() && !COMMENT.test(r)).map(tokens);
  // Removed code that no added line resembles is deleted logic; a deleted condition (a guard, a bound
  // check) changes behaviour even when the lines left behind look like they only grew.
  const addedTokens = h.added.map((a) => tokens(a.text));
  const droppedCondition = h.removed.some((r) => CONDITION.test(r) && !COMMENT.test(r) && addedTokens.every((a) => jaccard(a, tokens(r)) < 0.5));
  const out: LineShape[] = [];
  for (const a of h.added) {
    if (!a.text.trim() || COMMENT.test(a.text)) continue;
    const t = tokens(a.text);
    let best: string[] | null = null;
    let sim = 0;
    for (const r of removed) {
      const s = jaccard(t, r);
      if (s > sim) {
        sim = s;
        best = r;
      }
    }
    if (!best || sim < 0.3) {
      const def = DEFINITION.test(a.text);
      out.push({ n: a.n, text: a.text, edited: false, prior: def ? -0.3 : removed.length ? 0 : -0.15, reason: def ? 'adds a new definition' : 'adds a new line', valuesGone: [], valuesCame: [] });
      continue;
    }
    // Punctuation moves with formatting; only names, values and operators say what the code does.
    const gone = best.filter((x) => !t.includes(x) && !PUNCT.test(x));
    const came = t.filter((x) => !best!.includes(x) && !PUNCT.test(x));
    const ops = [...gone, ...came].some((x) => OPERATOR.test(x));
    const lits = [...gone, ...came].some((x) => LITERAL.test(x));
    const calls = came.some((x) => /^[A-Za-z_]\w*$/.test(x)) && gone.some((x) => /^[A-Za-z_]\w*$/.test(x));
    // Replacing a literal by a named constant keeps behaviour: a refactor, not a tweak.
    const refactor = !ops && gone.every((x) => LITERAL.test(x)) && came.every((x) => /^[A-Z_][A-Z0-9_]*$/.test(x));
    let prior = gone.length || came.length ? 0.1 : -0.1;
    const why: string[] = gone.length || came.length ? [] : ['reformatted only'];
    if (ops) {
      prior += 0.2;
      why.push('an operator changed');
    }
    if (lits) {
      prior += 0.1;
      why.push('a value changed');
    }
    if (calls && !ops && !lits) {
      prior += 0.05;
      why.push('a call or name changed');
    }
    if (refactor) {
      prior = -0.05;
      why.length = 0;
      why.push('a literal became a named constant');
    }
    // Only names changed, and each old name became the same new name throughout: a rename.
    const ids = (xs: string[]) => xs.filter((x) => IDENT.test(x));
    let neutral = !gone.length && !came.length;
    if (!ops && !lits && gone.length && ids(gone).length === gone.length && ids(came).length === came.length && gone.every((g) => renames.has(g))) {
      prior = -0.15;
      neutral = true;
      why.length = 0;
      why.push(`renames ${[...new Set(gone)].map((g) => `\`${g}\` → \`${renames.get(g)}\``).join(', ')}`);
    } else if (LOGGING.test(a.text) && !ops) {
      prior = -0.2;
      neutral = true;
      why.length = 0;
      why.push('changes a log message');
    } else if (ERROR_MESSAGE.test(a.text) && !ops && gone.every((x) => LITERAL.test(x) || x.startsWith('`'))) {
      prior = -0.1;
      why.length = 0;
      why.push('rewords an error message');
    } else if (!gone.length && came.length) {
      // The old line is all still there, with more added (a guard, an extra argument): it extends rather
      // than changes what the line did.
      prior = Math.min(prior, 0.1);
      why.push('extends the line');
    }
    if (droppedCondition && !neutral && prior < 0.3) {
      prior = 0.3;
      why.push('drops a condition');
    }
    out.push({
      n: a.n,
      text: a.text,
      edited: true,
      ...(neutral ? { neutral } : {}),
      prior: Math.min(0.35, prior),
      reason: why.join(', ') || 'an edited line',
      valuesGone: gone.filter((x) => LITERAL.test(x)).map(unquote),
      valuesCame: came.filter((x) => LITERAL.test(x)).map(unquote),
    });
  }
  // A hunk that took code away and put no code back (deleted, or commented out) changed behaviour too: a
  // removed catch, guard or call. Its place is the hunk's first line (with no context, git numbers a pure
  // deletion by the line before it), where the fix will put the code back.
  if (!out.length && removed.length) {
    const code = h.removed.find((r) => r.trim() && !COMMENT.test(r))!;
    const cond = h.removed.some((r) => CONDITION.test(r) && !COMMENT.test(r));
    // Removing only declarations (a bodiless method, an annotation element) breaks the callers' build, not
    // a test's behaviour: such a hunk is a weak suspect for a failing test.
    const decls = h.removed.filter((r) => r.trim() && !COMMENT.test(r)).every((r) => DEFINITION.test(r) || BODILESS.test(r) || PUNCT_LINE.test(r));
    const [prior, reason] = decls ? [-0.15, 'removes a declaration'] : cond ? [0.3, 'removes a condition'] : [0.1, 'removes code'];
    out.push({ n: h.start, text: code, edited: true, removedOnly: true, prior, reason, valuesGone: [], valuesCame: [] });
  }
  return out;
}

/** How many times each identifier occurs among the tokens. */
function countIds(toks: readonly string[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const x of toks) if (IDENT.test(x)) n.set(x, (n.get(x) ?? 0) + 1);
  return n;
}

function unquote(s: string): string {
  return /^['"`]/.test(s) ? s.slice(1, -1) : s;
}

/**
 * Identifier renames across a file's hunks (a diff with no context splits one rename into many hunks):
 * old → new, where the old name is gone from the added lines and one new name took all its places.
 */
export function renamesIn(hunks: readonly Hunk[]): Map<string, string> {
  // Counted once (a 378-file diff made the per-name recounting below quadratic: minutes for one diagnosis).
  const addedUses = countIds(hunks.flatMap((h) => h.added.flatMap((a) => tokens(a.text))));
  const removedUses = countIds(hunks.flatMap((h) => h.removed.flatMap(tokens)));
  // The names that came, by how many times they are used.
  const cameByUses = new Map<number, string[]>();
  for (const [c, n] of addedUses) if (!removedUses.has(c)) cameByUses.set(n, [...(cameByUses.get(n) ?? []), c]);
  const out = new Map<string, string>();
  for (const [g, uses] of removedUses) {
    if (addedUses.has(g)) continue;
    // The new name takes the old one's place: same number of uses across the hunk.
    const match = cameByUses.get(uses) ?? [];
    // A name used once (a single call swapped, `find` → `findLast`) is a change of call, not a rename.
    if (match.length === 1 && uses >= 2) out.set(g, match[0]!);
  }
  return out;
}
