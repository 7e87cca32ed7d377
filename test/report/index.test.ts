import { describe, expect, it } from 'vitest';
import { render, renderJson, renderMarkdown, renderSarif, renderText } from '../../src/report/index.js';
import { located } from './make.js';

describe('render', () => {
  it('dispatches to each reporter', () => {
    const d = located();
    expect(render(d, 'json')).toBe(renderJson(d));
    expect(render(d, 'text')).toBe(renderText(d, { color: false }));
    expect(render(d, 'text', { color: true })).toBe(renderText(d, { color: true }));
    expect(render(d, 'markdown', { fingerprint: 'x' })).toBe(renderMarkdown(d, { fingerprint: 'x' }));
    expect(render(d, 'sarif', { toolVersion: '1.2.3' })).toBe(renderSarif(d, { toolVersion: '1.2.3' }));
  });
});
