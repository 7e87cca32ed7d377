// The code-intelligence layer's public face: tags per file (tree-sitter, text fallback), their disk
// cache, and the enclosing symbol of a line.
export type { DefKind, Definition, Reference, FileTags } from './types.js';
export { GRAMMAR_IDS, grammarFor, loadGrammar, querySource, type GrammarId, type LoadedGrammar } from './languages.js';
export {
  fileTags,
  tagsForFiles,
  tagSource,
  newTagStats,
  MAX_TAG_FILE_BYTES,
  MAX_PARSE_BYTES,
  PARSE_TIMEOUT_MS,
  TAG_CONCURRENCY,
  type TagOptions,
  type TagStats,
} from './tags.js';
export {
  TagCache,
  defaultTagCacheDir,
  tagCacheKey,
  TAGS_VERSION,
  TAG_CACHE_MAX_BYTES,
  TAG_CACHE_PRUNE_EVERY_MS,
  type CachedTags,
  type TagCacheOptions,
} from './tag-cache.js';
export { textTags } from './text-tags.js';
export { enclosingDefinition, describeSymbol } from './enclosing.js';
