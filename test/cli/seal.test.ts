import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli/cli';
import { openStore } from '../../src/store/database';
import { makeP12 } from '../support/seal';
import { runCommand, tempDir, testIo } from './cli-support';

const DAY = 86_400_000;

describe('the seal settings and the seal command', () => {
  let dir: string;
  let remove: () => void;
  let databaseUrl: string;
  beforeEach(() => {
    ({ dir, remove } = tempDir());
    databaseUrl = `sqlite:${path.join(dir, 'ops.db')}`;
  });
  afterEach(() => remove());

  const run = (argv: string[], env: Record<string, string> = {}) =>
    runCommand(argv, { DATABASE_URL: databaseUrl, ...env });

  /** Writes a P12 into the test's folder; answers its path and passphrase. */
  const p12File = (options: Parameters<typeof makeP12>[0] = {}) => {
    const { p12, passphrase } = makeP12(options);
    const file = path.join(dir, 'seal.p12');
    fs.writeFileSync(file, p12);
    return { file, passphrase };
  };

  /** `serve` refused before it listens: exit 2 and exactly one problem line, no passphrase in it. */
  const refusedWith = async (env: Record<string, string>, problem: string) => {
    const result = await run(['serve'], { PORT: '0', ...env });
    expect(result.code).toBe(2);
    expect(result.err.split('\n')).toEqual(['facility-ops: invalid configuration:', `  ${problem}`]);
    expect(result.out).not.toContain('listening');
    for (const [name, value] of Object.entries(env)) {
      if (name.endsWith('PASSPHRASE')) expect(result.err).not.toContain(value);
    }
  };

  it('refuses to start without the P12 file named', async () => {
    const file = path.join(dir, 'missing.p12');
    await refusedWith({ SEAL_P12_FILE: file }, `SEAL_P12_FILE: no file ${file}`);
  });

  it('refuses to start with a file that is not a P12', async () => {
    const file = path.join(dir, 'seal.p12');
    fs.writeFileSync(file, '-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----\n');
    const result = await run(['serve'], { SEAL_P12_FILE: file });
    expect(result.code).toBe(2);
    expect(result.err.split('\n')).toHaveLength(2);
    expect(result.err).toContain(
      `  SEAL_P12_FILE: ${file}: it is not a PKCS #12 (.p12, .pfx) file this service can read`,
    );
  });

  it('refuses to start with a P12 the passphrase does not open, naming the passphrase setting, not the passphrase', async () => {
    const { file } = p12File({ passphrase: 'the-right-one' });
    await refusedWith(
      { SEAL_P12_FILE: file, SEAL_P12_PASSPHRASE: 'a-wrong-one' },
      `SEAL_P12_PASSPHRASE: does not open ${file} (SEAL_P12_FILE)`,
    );
  });

  it('refuses to start with an expired certificate, or one not valid yet', async () => {
    const expired = p12File({
      notBefore: new Date(Date.now() - 30 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const result = await run(['serve'], {
      SEAL_P12_FILE: expired.file,
      SEAL_P12_PASSPHRASE: expired.passphrase,
    });
    expect(result.code).toBe(2);
    expect(result.err.split('\n')[1]).toMatch(
      new RegExp(`^  SEAL_P12_FILE: ${expired.file}: its certificate expired on \\d{4}-\\d\\d-\\d\\dT`),
    );
    const early = p12File({ notBefore: new Date(Date.now() + DAY) });
    const later = await run(['serve'], { SEAL_P12_FILE: early.file, SEAL_P12_PASSPHRASE: early.passphrase });
    expect(later.err.split('\n')[1]).toMatch(/: its certificate is valid only from /);
  });

  it('refuses to start with a certificate that is not for signing', async () => {
    const encipherOnly = p12File({ extensions: [{ name: 'keyUsage', keyEncipherment: true }] });
    await refusedWith(
      { SEAL_P12_FILE: encipherOnly.file, SEAL_P12_PASSPHRASE: encipherOnly.passphrase },
      `SEAL_P12_FILE: ${encipherOnly.file}: its certificate is not for signing (its key usage has neither digitalSignature nor nonRepudiation)`,
    );
    const serverOnly = p12File({
      extensions: [
        { name: 'keyUsage', digitalSignature: true },
        { name: 'extKeyUsage', serverAuth: true },
      ],
    });
    await refusedWith(
      { SEAL_P12_FILE: serverOnly.file, SEAL_P12_PASSPHRASE: serverOnly.passphrase },
      `SEAL_P12_FILE: ${serverOnly.file}: its certificate is not for signing documents (its extended key usage has neither document signing, email protection nor any purpose)`,
    );
  });

  it('refuses passphrases that would do nothing', async () => {
    await refusedWith({ SEAL_P12_PASSPHRASE: 'lonely' }, 'SEAL_P12_PASSPHRASE: set only with SEAL_P12_FILE');
    const { file, passphrase } = p12File();
    await refusedWith(
      { SEAL_P12_FILE: file, SEAL_P12_PASSPHRASE: passphrase, SEAL_KEY_PASSPHRASE: 'unused' },
      "SEAL_KEY_PASSPHRASE: set only without SEAL_P12_FILE (it encrypts the installation's own sealing key)",
    );
  });

  it("shows the operator's certificate with seal show, and refuses to rotate it", async () => {
    const { file, passphrase } = p12File({ commonName: 'Acme Storage Seal' });
    const env = { SEAL_P12_FILE: file, SEAL_P12_PASSPHRASE: passphrase };
    const shown = await run(['seal', 'show', '--json'], env);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out.split('\n').pop()!)).toMatchObject({
      origin: 'operator',
      generation: null,
      subject: 'CN=Acme Storage Seal, O=Acme Storage',
      sha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
    });
    const rotated = await run(['seal', 'rotate'], env);
    expect(rotated.code).toBe(2);
    expect(rotated.err).toContain(
      'SEAL_P12_FILE: the operator gives the sealing certificate: replace the file to rotate',
    );
  });

  it("makes the installation's certificate on first need, shows the same one after, rotates to the next", async () => {
    const first = await run(['seal', 'show']);
    expect(first.code).toBe(0);
    const fingerprint = /SHA-256 {3}((?:[0-9A-F]{2}:){31}[0-9A-F]{2})/.exec(first.out)?.[1];
    expect(first.out).toContain(
      "signed PDFs are sealed with the installation's own certificate, generation 1",
    );
    expect(first.out).toContain('subject   CN=Facility Ops document seal (127.0.0.1:3000), O=Facility Ops');
    expect(fingerprint).toBeDefined();
    expect((await run(['seal', 'show'])).out).toContain(`SHA-256   ${fingerprint}`);

    const rotated = await run(['seal', 'rotate']);
    expect(rotated.code).toBe(0);
    expect(rotated.out).toContain("made the installation's sealing certificate 2");
    expect(rotated.out).not.toContain(fingerprint);
    const after = await run(['seal', 'show']);
    expect(after.out).toContain('generation 2');
    expect(after.out).not.toContain(fingerprint);
  });

  it('refuses to start when SEAL_KEY_PASSPHRASE does not open the kept key, and names no passphrase', async () => {
    expect((await run(['seal', 'show'], { SEAL_KEY_PASSPHRASE: 'made-with-this' })).code).toBe(0);
    const store = openStore(databaseUrl);
    try {
      const [row] = await store.db.selectFrom('sealing_certificates').selectAll().execute();
      expect(row.private_key_pem).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    } finally {
      await store.close();
    }
    await refusedWith(
      { SEAL_KEY_PASSPHRASE: 'not-this-one' },
      "SEAL_KEY_PASSPHRASE: the passphrase does not open the installation's sealing key (generation 1)",
    );
    await refusedWith(
      {},
      "SEAL_KEY_PASSPHRASE: the installation's sealing key (generation 1) is kept encrypted: set the passphrase it was made with",
    );
    expect((await run(['seal', 'show'], { SEAL_KEY_PASSPHRASE: 'made-with-this' })).code).toBe(0);
  });

  it('logs the sealing certificate when the server starts', async () => {
    expect((await run(['migrate'])).code).toBe(0);
    const lines: string[] = [];
    const t = testIo({ DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'info' });
    t.io.logStream = { write: (line: string) => lines.push(line) };
    const serving = runCli(['serve'], t.io);
    await t.line(/listening on/);
    t.stop();
    expect(await serving).toBe(0);
    const logged = lines
      .map((line) => JSON.parse(line) as { msg: string; seal?: Record<string, unknown> })
      .find((line) => line.msg === 'signed PDFs are sealed with this certificate');
    expect(logged?.seal).toMatchObject({
      origin: 'installation',
      generation: 1,
      sha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
    });
    expect(JSON.stringify(lines)).not.toContain('PRIVATE KEY');
  });
});
