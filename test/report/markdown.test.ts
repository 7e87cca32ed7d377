import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.js';
import { ALNUM, located, noLocation, randomText, sourceFile } from './make.js';

const source = (file: string): string[] | undefined => (file === 'src/a.ts' ? sourceFile() : undefined);
const permalink = (file: string, line: number): string => `https://github.com/o/r/blob/abc123/${file}#L${line}`;

/** The fences of a markdown body (opening/closing lines of backtick runs at line start). */
function fenceLines(md: string): string[] {
  return md.split('\n').filter((l) => /^`{3,}/.test(l));
}

describe('renderMarkdown', () => {
  it('renders the pin, why, evidence, collapsed excerpt, links and hidden fingerprint', () => {
    const md = renderMarkdown(located(), {
      source,
      permalink,
      fingerprint: 'abc123',
      logUrl: 'https://github.com/o/r/actions/runs/1/job/2',
      artifactsUrl: 'https://github.com/o/r/actions/runs/1/artifacts/3',
    });
    expect(md.startsWith('<!-- redline:fp=abc123 -->\n### ✖ Redline: compile failure at [`src/a.ts:12:5`](https://github.com/o/r/blob/abc123/src/a.ts#L12)')).toBe(true);
    expect(md).toContain("**Why:** Type 'string' is not assignable to type 'number'.");
    expect(md).toContain('**Log from step `Build`** ([full log](https://github.com/o/r/actions/runs/1/job/2))');
    expect(md).toContain('```text\nlog:119  > tsc -p .\n');
    expect(md).toContain('<details><summary>Source: <code>src/a.ts</code> lines 10–14</summary>');
    expect(md).toContain("> 12 | const total: number = 'oops';");
    expect(md).toContain('[Artifacts](https://github.com/o/r/actions/runs/1/artifacts/3)');
    expect(md.endsWith('\n')).toBe(true);
  });

  it('renders a no-location diagnosis without a pin', () => {
    const md = renderMarkdown(noLocation());
    expect(md.split('\n')[0]).toBe('### ✖ Redline: no location — infra failure');
    expect(md).toContain('The runner was shut down; nothing in the repo to point at.');
    expect(md).not.toContain('<details>');
  });

  it('keeps log text that contains ``` and </details> inside its fence', () => {
    const d = located({
      evidence: [
        { line: 1, text: '```' },
        { line: 2, text: '</details> <img src=x onerror=alert(1)> @octocat' },
        { line: 3, text: 'a ```` b' },
      ],
    });
    const md = renderMarkdown(d, { source });
    const fences = fenceLines(md);
    // evidence block: opened and closed with the same 5-backtick fence; source block with 3.
    expect(fences).toEqual(['`````text', '`````', '```ts', '```']);
    const inside = md.slice(md.indexOf('`````text'), md.lastIndexOf('`````') + 5);
    expect(inside).toContain('</details> <img src=x');
    // The only </details> outside code blocks is ours.
    const outside = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');
    expect(outside.match(/<\/details>/g)).toHaveLength(1);
    expect(outside).not.toContain('<img');
    expect(outside).not.toContain('@octocat');
  });

  it('sanitizes prose: no HTML, images, links, mentions or hidden characters', () => {
    const d = located({ summary: 'ping @octocat and @org/team ![i](https://evil.example/x.png) <b>hi</b> \u202Eabc\u200B' }, {
      message: 'see [here](https://evil.example) #12',
    });
    const md = renderMarkdown(d);
    expect(md).toContain('`@octocat`');
    expect(md).toContain('`@org/team`');
    expect(md).not.toMatch(/(?<![\\`])@octocat/);
    expect(md).not.toMatch(/(?<!\\)!(?<!\\)\[/);
    expect(md).not.toMatch(/(?<!\\)\]\((?!https:\/\/github\.com)/);
    expect(md).toContain('&lt;b&gt;hi&lt;/b&gt;');
    expect(md).toContain('`#12`');
    expect(md).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/);
  });

  it('never exceeds 65,536 characters with a huge evidence, and says what it cut', () => {
    const evidence = Array.from({ length: 5000 }, (_, i) => ({ line: i + 1, text: `E${i} ` + 'x'.repeat(5000) }));
    const md = renderMarkdown(located({ evidence }, { message: 'm'.repeat(100_000) }), { source });
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('4950 more evidence lines in the full log');
    expect(md).toContain('…');
    expect(md).toContain('<details>');
  });

  it('cuts the longest part first to fit a smaller limit and says so', () => {
    const evidence = Array.from({ length: 40 }, (_, i) => ({ line: i + 1, text: `line ${i} ` + 'y'.repeat(900) }));
    const md = renderMarkdown(located({ evidence }), { source, maxChars: 8000, fingerprint: 'fp1' });
    expect(md.length).toBeLessThanOrEqual(8000);
    expect(md).toMatch(/_\d+ of 40 lines cut to fit GitHub's 8,000-character limit; the full log has them\._/);
    // The smaller parts survive: the pin, the why and the excerpt.
    expect(md).toContain('<!-- redline:fp=fp1 -->');
    expect(md).toContain('**Why:**');
    expect(md).toContain("> 12 | const total: number = 'oops';");
    // The fence is still closed.
    expect(fenceLines(md).length % 2).toBe(0);
  });

  it('fits even when every part is long, keeping fences balanced', () => {
    const evidence = Array.from({ length: 50 }, (_, i) => ({ line: i + 1, text: '`'.repeat(i % 7) + 'z'.repeat(990) }));
    const src = Array.from({ length: 40 }, () => 'q'.repeat(400));
    const d = located({ evidence, summary: 's'.repeat(5000) }, { line: 5, endLine: 35, message: 'w'.repeat(5000) });
    for (const max of [65_536, 20_000, 3000, 1200]) {
      const md = renderMarkdown(d, { source: () => src, maxChars: max });
      expect(md.length).toBeLessThanOrEqual(max);
      expect(fenceLines(md).length % 2).toBe(0);
    }
  });

  it('sanitizes the fingerprint so it cannot close the HTML comment', () => {
    const md = renderMarkdown(noLocation(), { fingerprint: 'a-->b<script>' });
    expect(md.split('\n')[0]).toBe('<!-- redline:fp=a--bscript -->');
  });

  it('redacts secrets from log lines and source before posting', () => {
    const tok = 'xo' + 'xp-' + randomText(40, ALNUM, 9);
    const src = sourceFile();
    src[10] = `SLACK=${tok}`;
    const md = renderMarkdown(located({ evidence: [{ line: 1, text: tok }] }), { source: () => src });
    expect(md).not.toContain(tok);
    expect(md).toContain('[REDACTED:slack-token]');
  });

  it('drops links that are not https', () => {
    const md = renderMarkdown(located(), { logUrl: 'javascript:alert(1)', permalink: () => 'http://evil.example/' });
    expect(md).not.toContain('javascript:');
    expect(md).not.toContain('evil.example');
  });
});
