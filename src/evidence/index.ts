/** The evidence stage's public face (DESIGN.md §3a). */
export { lineKey, lineTemplate, templateHash, TemplateCounter, TEMPLATE_MAX_CHARS } from './templates.js';
export { diffAgainstPassing, PassingLogMismatchError, type PassingDiff, type FailingSide, type PassingSide } from './passing-diff.js';
export { jobIdentity, sameJob, type JobIdentity } from './job-identity.js';
