import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'facility-ops.js');

/** The command line as a Node.js of that version runs it (the version is all the check reads). */
function runAs(version: string) {
  const program = `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} }); require(${JSON.stringify(BIN)});`;
  return spawnSync(process.execPath, ['-e', program, 'facility-ops', '--help'], { encoding: 'utf8' });
}

describe('the Node.js lines', () => {
  it.each(['20.20.2', '18.20.8', '22.18.0'])(
    'refuses Node.js %s in one line naming the supported lines',
    (version) => {
      const result = runAs(version);
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `facility-ops: Node.js ${version} is not supported; use Node.js 22 (22.19 or newer), 24 or 26.\n`,
      );
    },
  );

  it.each(['22.19.0', '24.21.0', '26.10.0'])('goes on under Node.js %s', (version) => {
    expect(runAs(version).stderr).not.toContain('is not supported');
  });

  it('are named alike by engines, .nvmrc and scripts/with-node', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
      devDependencies: Record<string, string>;
    };
    expect(manifest.engines.node).toBe('>=22.19');
    expect(manifest.devDependencies['@types/node']).toMatch(/^\^22\./);
    expect(fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()).toBe('24');
    const withNode = fs.readFileSync(path.join(ROOT, 'scripts', 'with-node'), 'utf8');
    expect([...withNode.matchAll(/^ {2}(\d+)\) version=(\d+)\./gm)].map((m) => [m[1], m[2]])).toEqual([
      ['22', '22'],
      ['24', '24'],
      ['26', '26'],
    ]);
  });
});
