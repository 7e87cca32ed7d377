/**
 * The reporters: pure functions from a Diagnosis (plus small options) to the text a door prints or
 * posts. Every one redacts secrets; the markdown one also sanitizes for GitHub.
 */
import type { Diagnosis } from '../types.js';
import { renderJson } from './json.js';
import { renderMarkdown, type MarkdownOptions } from './markdown.js';
import { renderSarif, type SarifOptions } from './sarif.js';
import { renderText, type TextOptions } from './text.js';

export { renderJson } from './json.js';
export { renderMarkdown, type MarkdownOptions } from './markdown.js';
export { renderSarif, type SarifOptions } from './sarif.js';
export { renderText, type TextOptions } from './text.js';
export { COMMENT_MAX_CHARS } from './bounds.js';

export type Format = 'text' | 'json' | 'markdown' | 'sarif';
export const FORMATS: readonly Format[] = ['text', 'json', 'markdown', 'sarif'];

/** Options for `render`: each format reads only its own (color/context for text, URLs for markdown...). */
export type RenderOptions = Partial<TextOptions> & MarkdownOptions & Partial<SarifOptions>;

/** Renders `d` in `format`; text defaults to no colour, SARIF's tool version to "0.0.0" when not given. */
export function render(d: Diagnosis, format: Format, opts: RenderOptions = {}): string {
  switch (format) {
    case 'json':
      return renderJson(d);
    case 'text':
      return renderText(d, {
        color: opts.color ?? false,
        ...(opts.source ? { source: opts.source } : {}),
        ...(opts.context !== undefined ? { context: opts.context } : {}),
        ...(opts.escapeCommands !== undefined ? { escapeCommands: opts.escapeCommands } : {}),
      });
    case 'markdown':
      return renderMarkdown(d, opts);
    case 'sarif':
      return renderSarif(d, {
        toolVersion: opts.toolVersion ?? '0.0.0',
        ...(opts.informationUri ? { informationUri: opts.informationUri } : {}),
        ...(opts.srcRootUri ? { srcRootUri: opts.srcRootUri } : {}),
      });
  }
}
