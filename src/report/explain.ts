import type { Category, Cause, Finding } from '../types.js';

/** Why a finding's cause makes Redline point there, in words for people (never from the log). */
export const CAUSE_TEXT: Record<Cause, string> = {
  diagnostic: 'the tool that failed reported this location',
  frame: 'the top stack frame inside the repo',
  test: 'the failing test is defined here',
  identifier: 'a name from the error is used here',
  definition: 'the name from the error is defined here',
  diff: 'changed in this PR and named by the error',
  model: 'an LLM investigation pinned this line and Redline verified the cited code is there',
};

/** "compile failure", "test failure", ..., "unknown failure". */
export function categoryLabel(c: Category): string {
  return `${c} failure`;
}

/** `file:line:col` (or `file:line`): the form terminals and editors make clickable. */
export function pinText(f: Pick<Finding, 'file' | 'line' | 'column'>): string {
  return `${f.file}:${f.line}${f.column !== undefined ? `:${f.column}` : ''}`;
}
