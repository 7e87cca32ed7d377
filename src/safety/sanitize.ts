/**
 * Making hostile text (log lines, repo files, PR content) safe to post or print. Fork PRs control both
 * the log and the repo, so everything from them is treated as an attack on the reader: no raw HTML,
 * no images, no outside links, no @mentions or cross-references, no hidden characters, no workflow
 * commands. The primitives here are small and composable; the reporters choose where each applies.
 */

// Zero-width (U+200B–U+200F), bidi embeddings/overrides (U+202A–U+202E) and isolates (U+2066–U+2069),
// BOM (U+FEFF), plus the other invisible format characters that hide text the same way: word joiner
// and invisible operators (U+2060–U+2064), Arabic letter mark (U+061C), Mongolian vowel separator
// (U+180E), soft hyphen (U+00AD); and C0/C1 control characters other than tab and newline.
const HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u2060-\u2064\u061C\u180E\u00AD\x00-\x08\x0B-\x1F\x7F-\x9F]/g;

/** Removes invisible and direction-changing characters and control characters (tab and \n stay). */
export function stripHidden(s: string): string {
  return s.replace(HIDDEN, '');
}

/** Escapes the three characters that start HTML or entities. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The longest run of backticks in `s` (fences and code spans must be longer to be unescapable). */
function longestBacktickRun(s: string): number {
  let best = 0;
  for (const m of s.matchAll(/`+/g)) best = Math.max(best, m[0].length);
  return best;
}

/**
 * Renders `s` as one inline code span that its content cannot close: the delimiter is one backtick
 * longer than any run inside. Inside a code span GitHub renders no HTML, links or mentions.
 */
export function inlineCode(s: string): string {
  const text = stripHidden(s).replace(/[\r\n\t]+/g, ' ');
  if (text === '') return '` `';
  const tick = '`'.repeat(longestBacktickRun(text) + 1);
  // A span that starts or ends with a backtick needs a space so the delimiter stays separate.
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${tick}${pad}${text}${pad}${tick}`;
}

/**
 * Renders lines as a fenced code block that log text cannot escape: the fence is longer than any
 * backtick run inside, so no line can close it; HTML such as `</details>` inside stays text.
 */
export function codeBlock(lines: readonly string[], info = ''): string {
  const body = lines.map((l) => stripHidden(l).replace(/\r/g, ''));
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body.join('\n')) + 1));
  const lang = info.replace(/[^A-Za-z0-9+#.-]/g, '');
  return `${fence}${lang}\n${body.join('\n')}\n${fence}`;
}

/** Renders text inside an HTML element as `<code>`: GitHub resolves no mentions or links in code. */
export function htmlCode(s: string): string {
  return `<code>${escapeHtml(stripHidden(s).replace(/[\r\n]+/g, ' '))}</code>`;
}

// What GitHub would turn into a link, a ping or a cross-reference when it appears in prose. Each
// alternative is a bounded run, so matching stays linear.
const ACTIVE = new RegExp(
  [
    // e-mail addresses (GFM autolinks them as mailto:) — before mentions, which they contain
    String.raw`(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}`,
    // URLs with any scheme, and GFM's www. autolinks
    String.raw`(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/[^\s\x60<>]{1,2048}`,
    String.raw`(?<![A-Za-z0-9])(?:mailto|data|javascript|vbscript):[^\s\x60<>]{1,2048}`,
    String.raw`(?<![A-Za-z0-9.-])www\.[^\s\x60<>]{1,2048}`,
    // @user, @org/team
    String.raw`(?<![A-Za-z0-9_\x60])@[A-Za-z0-9][A-Za-z0-9-]{0,38}(?:\/[A-Za-z0-9_.-]{1,100})?`,
    // owner/repo#12, #12, GH-12: cross-references create backlinks in other issues and repos
    String.raw`(?<![A-Za-z0-9_.\/-])(?:[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100})?#\d{1,10}(?![A-Za-z0-9_])`,
    String.raw`(?<![A-Za-z0-9_])GH-\d{1,10}(?![A-Za-z0-9_])`,
  ].join('|'),
  'g',
);

// Markdown punctuation that can start emphasis, links, images, code, tables, headings or math.
const MD_PUNCT = /[\\`*_[\]!|~#$]/g;

/** Escapes plain (inactive) prose: markdown punctuation with `\`, HTML with entities. */
function escapePlain(s: string): string {
  return escapeHtml(s).replace(MD_PUNCT, (c) => `\\${c}`);
}

/**
 * Makes one line of untrusted text safe as markdown prose: hidden characters removed, newlines
 * folded, HTML escaped, markdown syntax escaped (no images, links or emphasis tricks), and URLs,
 * e-mails, @mentions and issue references shown as inline code so GitHub neither links nor pings.
 */
export function sanitizeProse(s: string): string {
  const text = stripHidden(s).replace(/\s+/g, ' ').trim();
  let out = '';
  let last = 0;
  for (const m of text.matchAll(ACTIVE)) {
    out += escapePlain(text.slice(last, m.index)) + inlineCode(m[0]);
    last = m.index + m[0].length;
  }
  return out + escapePlain(text.slice(last));
}

/**
 * Makes an https URL we built (permalink, log, artifacts) safe as a markdown link target, or returns
 * undefined for anything else (other schemes, spaces, control characters).
 */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url || !/^https:\/\/[^\s\x00-\x1f\x7f]+$/.test(url)) return undefined;
  return url.replace(/[()<>"`\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * Makes a line (or lines) inert for the Actions runner when echoed to a step's output: a line whose
 * trimmed start is `::` is a workflow command (`::error::`, `::add-mask::`, `::stop-commands::`), and
 * `##[` anywhere in a line is the legacy form. Both are broken with a visible change.
 */
export function escapeWorkflowCommands(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^([\s\u0085]*):(?=:)/, '$1: ').replace(/##\[/g, '# #['))
    .join('\n');
}
