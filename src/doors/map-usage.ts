import { DEFAULT_MAP_TOKENS } from '../limits.js';

/** `redline map --help`, apart from the command so `redline --help` prints it without loading the map's code. */
export const MAP_USAGE = `usage: redline map --repo <dir> [--focus <file|symbol>]... [--tokens N]

  --repo    the checkout to map
  --focus   a repo file or a symbol name to centre the map on (repeatable): the ranking is personalised
            towards it, as diagnose does with the failing test, its frames and the PR's files
  --tokens  the map's budget in tokens (default ${DEFAULT_MAP_TOKENS}); the map is cut to fit and says what it left out`;
