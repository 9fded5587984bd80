import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Builds the explorer's bundle into dist/ when it is missing or older than its sources, as
 * `npm run build` does (scripts/build-explorer.js), so the tests serve what a build serves.
 */
export function ensureExplorerBundle(): void {
  execFileSync(process.execPath, [path.join(__dirname, '../../../scripts/build-explorer.js'), '--if-stale'], {
    stdio: 'inherit',
  });
}
