/**
 * The base layer every stage may use (DESIGN.md §2): secrets out of everything that leaves the process,
 * markdown/HTML/mentions made safe for GitHub, and paths confined to the checkout. It imports nothing
 * from the pipeline's stages, so the agent, the service, github/ and the reporters all take it from here.
 */
export { redactDiagnosis, redactLines, redactSecrets, redactSecretsDeep, shannonEntropy, type Redacted } from './redact.js';
export { redactedText, redactFile, redactingGitHub, redactOutgoing, redactOutgoingLines, redactRequestParams, markRedacting } from './redact-outgoing.js';
export {
  codeBlock,
  escapeHtml,
  escapeWorkflowCommands,
  htmlCode,
  inlineCode,
  safeUrl,
  sanitizeProse,
  stripHidden,
} from './sanitize.js';
export { OutsideWorkspaceError, realRoot, resolveInside, toRepoPath } from './confine.js';
