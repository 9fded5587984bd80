import fs from 'node:fs';
import path from 'node:path';
import { nativeModuleHint, runCli } from '../../src/cli/cli';
import { formatLogLine } from '../../src/logger';
import { createTestApp } from '../support/http';
import { runCommand, tempDir, testIo } from './cli-support';

describe('the console of serve and start', () => {
  let scratch: ReturnType<typeof tempDir>;
  beforeAll(() => (scratch = tempDir()));
  afterAll(() => scratch.remove());

  it.each([['serve'], ['start']])(
    '%s listens where --port and --host say, over PORT and HOST',
    async (command) => {
      const databaseUrl = `sqlite:${path.join(scratch.dir, `${command}.db`)}`;
      if (command === 'serve')
        expect((await runCommand(['migrate'], { DATABASE_URL: databaseUrl })).code).toBe(0);
      // PORT and HOST name an address this test cannot listen on: the options win.
      const t = testIo({ DATABASE_URL: databaseUrl, PORT: '1', HOST: '192.0.2.1' });
      const running = runCli([command, '--port', '0', '--host', '127.0.0.1'], t.io);
      const line = await t.line(/^facility-ops (listening on|is running at) /);
      expect(line).toMatch(/ http:\/\/127\.0\.0\.1:\d+$/);
      expect(line).not.toMatch(/:1$/);
      t.stop();
      expect(await running).toBe(0);
      const bad = await runCommand([command, '--port', 'abc'], { DATABASE_URL: databaseUrl });
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('PORT');
    },
    120_000,
  );

  it('LOG_FORMAT=pretty writes one readable line per log line, json stays pino', async () => {
    const logLines: string[] = [];
    const t = await createTestApp('sqlite', { env: { LOG_FORMAT: 'pretty' }, logLines });
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.close();
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) /);
      expect(() => JSON.parse(line)).toThrow();
    }
    expect(
      formatLogLine('{"level":40,"time":1795841349750,"pid":1,"hostname":"vm","reqId":"r1","msg":"slow"}'),
    ).toBe('04:49:09.750 WARN  slow  reqId=r1\n');
    expect((await runCommand(['serve'], { LOG_FORMAT: 'loud' })).err).toContain(
      'LOG_FORMAT: expected json or pretty, got "loud"',
    );
  });

  it('says to run npm rebuild when a native module does not load', () => {
    const file = path.join(scratch.dir, 'not-for-this-node.node');
    fs.writeFileSync(file, 'not a shared object');
    let failure: unknown;
    try {
      process.dlopen({ exports: {} }, file);
    } catch (error) {
      failure = error;
    }
    expect((failure as { code?: string }).code).toBe('ERR_DLOPEN_FAILED');
    expect(nativeModuleHint(failure)).toBe(
      `  a native module was built for another Node.js than this one (${process.version}, NODE_MODULE_VERSION ${process.versions.modules}): run \`npm rebuild\` with this Node.js, then try again`,
    );
    const abi = new Error(
      'The module was compiled against a different Node.js version using NODE_MODULE_VERSION 127. This version of Node.js requires NODE_MODULE_VERSION 137.',
    );
    expect(nativeModuleHint(abi)).toContain('npm rebuild');
    expect(nativeModuleHint(new Error('connect ECONNREFUSED'))).toBeNull();
  });
});
