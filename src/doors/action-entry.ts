/** The Action's entry (action.yml → dist/action/index.js is this, bundled): it only calls run(). */
import { run } from './action.js';

await run();
