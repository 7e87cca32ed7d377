import { describe, expect, it } from 'vitest';
import {
  codeBlock,
  escapeWorkflowCommands,
  htmlCode,
  inlineCode,
  safeUrl,
  sanitizeProse,
  stripHidden,
} from '../../src/safety/sanitize.js';

describe('sanitizeProse', () => {
  it('escapes raw HTML', () => {
    const out = sanitizeProse('<img src=x onerror=alert(1)> & <script>');
    expect(out).not.toMatch(/<[a-z]/i);
    expect(out).toContain('&lt;img');
    expect(out).toContain('&amp;');
  });

  it('neutralises images and links', () => {
    const out = sanitizeProse('see ![x](https://evil.example/p.png) and [click](http://evil.example)');
    expect(out).not.toMatch(/(?<!\\)!(?<!\\)\[/);
    expect(out).not.toMatch(/(?<!\\)\]\(/);
    expect(out).toContain('`https://evil.example/p.png)`');
  });

  it('shows bare URLs, www. hosts and e-mails as code, so GitHub does not autolink them', () => {
    expect(sanitizeProse('go to https://evil.example/x now')).toBe('go to `https://evil.example/x` now');
    expect(sanitizeProse('or www.evil.example')).toBe('or `www.evil.example`');
    expect(sanitizeProse('mail a.b@evil.example')).toBe('mail `a.b@evil.example`');
  });

  it('turns @mentions and team pings into inline code', () => {
    expect(sanitizeProse('cc @octocat and @github/security please')).toBe(
      'cc `@octocat` and `@github/security` please',
    );
  });

  it('turns issue cross-references into inline code', () => {
    expect(sanitizeProse('fixes other/repo#12 and #3')).toBe('fixes `other/repo#12` and `#3`');
  });

  it('escapes markdown syntax and removes hidden characters', () => {
    const out = sanitizeProse('**bold** _it_ `code` | a\u202Eevil\u200B\uFEFF $x$');
    expect(out).toBe('\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\| aevil \\$x\\$');
  });
});

describe('stripHidden', () => {
  it('removes zero-width, bidi and control characters but keeps tabs and newlines', () => {
    const hidden = '\u200B\u200C\u200D\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\uFEFF\x1b\x07';
    expect(stripHidden(`a${hidden}b\tc\nd`)).toBe('ab\tc\nd');
  });
});

describe('code spans and blocks', () => {
  it('uses a fence longer than any backtick run inside', () => {
    const block = codeBlock(['```', 'x ````` y', '</details>'], 'text');
    const lines = block.split('\n');
    expect(lines[0]).toBe('``````text');
    expect(lines.at(-1)).toBe('``````');
    expect(block).toContain('</details>');
  });

  it('has at least three backticks and strips hidden characters inside', () => {
    expect(codeBlock(['a\u202Eb'])).toBe('```\nab\n```');
  });

  it('inline code cannot be closed by its content', () => {
    expect(inlineCode('a`b')).toBe('``a`b``');
    expect(inlineCode('`x')).toBe('`` `x ``');
    expect(inlineCode('')).toBe('` `');
  });

  it('htmlCode escapes for use inside HTML', () => {
    expect(htmlCode('node_modules/@types/<x>.d.ts')).toBe('<code>node_modules/@types/&lt;x&gt;.d.ts</code>');
  });
});

describe('safeUrl', () => {
  it('accepts https only and escapes characters that end a link', () => {
    expect(safeUrl('https://github.com/o/r/blob/abc/a b.ts')).toBeUndefined();
    expect(safeUrl('https://github.com/o/r/blob/abc/a(1).ts#L3')).toBe('https://github.com/o/r/blob/abc/a%281%29.ts#L3');
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeUrl('http://github.com/')).toBeUndefined();
    expect(safeUrl(undefined)).toBeUndefined();
  });
});

describe('escapeWorkflowCommands', () => {
  it('breaks :: commands at the start of a line, after whitespace too', () => {
    expect(escapeWorkflowCommands('::error file=a.ts,line=1::boom')).toBe(': :error file=a.ts,line=1::boom');
    expect(escapeWorkflowCommands('  ::add-mask::x')).toBe('  : :add-mask::x');
    expect(escapeWorkflowCommands('a ::not-a-command::')).toBe('a ::not-a-command::');
  });

  it('breaks the legacy ##[ form anywhere in a line, on every line', () => {
    expect(escapeWorkflowCommands('x ##[error]boom\n::stop-commands::t')).toBe('x # #[error]boom\n: :stop-commands::t');
  });

  it('leaves no parsable command behind', () => {
    const out = escapeWorkflowCommands('###[set-output name=x]y\n\t::warning::w');
    for (const line of out.split('\n')) {
      expect(line.trimStart().startsWith('::')).toBe(false);
      expect(line.includes('##[')).toBe(false);
    }
  });
});

describe('sanitizeProse on adversarial input', () => {
  // (Its speed on these is a benchmark's business, not a test's: tests do not time things.)
  it('returns the text escaped (at most doubled, plus a code span), without throwing', () => {
    const evil = ['a'.repeat(300_000), '@'.repeat(300_000), 'a/'.repeat(150_000) + '#', 'x:'.repeat(150_000), 'a.'.repeat(150_000) + '@'];
    for (const e of evil) {
      const out = sanitizeProse(e);
      expect(typeof out).toBe('string');
      expect(out.length).toBeGreaterThan(0);
      expect(out.length).toBeLessThanOrEqual(2 * e.length + 16);
    }
  });
});
