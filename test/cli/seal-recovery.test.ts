import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli/cli';
import { buildWorld, worldDataset } from '../support/factories';
import { runCommand, tempDir, testIo } from './cli-support';

const LOST = randomBytes(32).toString('base64');
const NEW = randomBytes(32).toString('base64');

/**
 * docs/operations.md's recovery from a lost SECRETS_KEY: the seal, the client and the webhook
 * secrets were sealed under a key that is gone; `seal rotate --discard-unreadable`, then
 * `clients rotate` and `webhooks rotate-secret`, bring the installation back under the new key.
 */
describe('seal rotate --discard-unreadable: the way out of a lost SECRETS_KEY', () => {
  let scratch: ReturnType<typeof tempDir>;
  let databaseUrl: string;
  const world = buildWorld();
  beforeAll(() => {
    scratch = tempDir();
    databaseUrl = `sqlite:${path.join(scratch.dir, 'ops.db')}`;
  });
  afterAll(() => scratch.remove());

  const run = (argv: string[], env: Record<string, string> = {}) =>
    runCommand(argv, { DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ...env });

  /** `serve` on a free port until it listens, then stopped; its exit status and output. */
  async function serveOnce(env: Record<string, string>) {
    const t = testIo({ DATABASE_URL: databaseUrl, PORT: '0', ...env });
    const running = runCli(['serve'], t.io);
    const outcome = await Promise.race([
      t.line(/^facility-ops listening on /).then(() => 'listening'),
      running.then(() => 'ended'),
    ]);
    if (outcome === 'listening') t.stop();
    return { code: await running, listened: outcome === 'listening', err: t.err.join('\n') };
  }

  let endpointId: string;
  let firstFingerprint: string;

  it('refuses a recovery against a healthy seal: one line, exit 1, nothing changed', async () => {
    const file = path.join(scratch.dir, 'world.json');
    fs.writeFileSync(file, JSON.stringify(worldDataset(world)));
    expect((await run(['import', file], { SECRETS_KEY: LOST })).code).toBe(0);
    const shown = await run(['seal', 'show', '--json'], { SECRETS_KEY: LOST });
    expect(shown.code).toBe(0);
    firstFingerprint = (JSON.parse(shown.out) as { sha256: string }).sha256;
    const hook = await run(
      [
        'webhooks',
        'create',
        '--company',
        world.company.id,
        '--url',
        'http://127.0.0.1:9/hooks',
        '--events',
        'note.created',
        '--json',
      ],
      { SECRETS_KEY: LOST },
    );
    expect(hook.code).toBe(0);
    endpointId = (JSON.parse(hook.out) as { id: string }).id;

    const healthy = await run(['seal', 'rotate', '--discard-unreadable'], { SECRETS_KEY: LOST });
    expect(healthy).toEqual({
      code: 1,
      out: '',
      err: 'facility-ops: seal rotate --discard-unreadable: every sealing key opens with SECRETS_KEY, the seal is healthy: nothing was changed (seal rotate makes a new certificate)',
    });
    const after = await run(['seal', 'show', '--json'], { SECRETS_KEY: LOST });
    expect(JSON.parse(after.out)).toMatchObject({ generation: 1, sha256: firstFingerprint });
  });

  it('makes a new seal under the new key, keeps the old certificate, and names each secret to rotate', async () => {
    // The key is lost: the service does not start, naming the sealing key it cannot open.
    const refused = await serveOnce({ SECRETS_KEY: NEW });
    expect(refused).toMatchObject({ code: 2, listened: false });
    expect(refused.err).toContain(
      'sealing_certificates.private_key_pem of 1: the stored secret cannot be read',
    );

    const recovered = await run(['seal', 'rotate', '--discard-unreadable'], { SECRETS_KEY: NEW });
    expect(recovered.code).toBe(0);
    const lines = recovered.out.split('\n');
    expect(lines[0]).toBe(
      'discarded the private key of sealing certificate 1: no given key opens it (SECRETS_KEY, SECRETS_KEY_PREVIOUS)',
    );
    expect(lines[1]).toMatch(
      /^made the installation's sealing certificate 2: new signed PDFs are sealed with it/,
    );
    expect(recovered.out).toContain(
      'Signed PDFs sealed before still verify: each carries its certificate, and the certificates are kept; only sealing with the discarded keys is no longer possible.',
    );
    for (const client of [world.client, world.otherClient]) {
      expect(recovered.out).toContain(
        `client application ${client.id}: its consumer secret cannot be read either; its OAuth 1.0 requests get 401 (bearer tokens still work) until you run: facility-ops clients rotate ${client.id}`,
      );
    }
    expect(recovered.out).toContain(
      `webhook endpoint ${endpointId}: its signing secret cannot be read either; its deliveries fail and are retried until you run: facility-ops webhooks rotate-secret ${endpointId}`,
    );

    // The service starts again, sealing with generation 2.
    const started = await serveOnce({ SECRETS_KEY: NEW });
    expect(started).toMatchObject({ code: 0, listened: true });
    const shown = JSON.parse((await run(['seal', 'show', '--json'], { SECRETS_KEY: NEW })).out) as {
      generation: number;
      sha256: string;
    };
    expect(shown.generation).toBe(2);
    expect(shown.sha256).not.toBe(firstFingerprint);
    const again = await run(['seal', 'rotate', '--discard-unreadable'], { SECRETS_KEY: NEW });
    expect(again.code).toBe(1);
    expect(again.err).toContain('the seal is healthy: nothing was changed');
  });

  it('rotating the client and webhook secrets ends the recovery: every stored secret opens under the new key', async () => {
    for (const client of [world.client, world.otherClient]) {
      const rotated = await run(['clients', 'rotate', client.id], { SECRETS_KEY: NEW });
      expect(rotated.code).toBe(0);
      expect(rotated.out).toContain(
        'the previous secret could not be read (SECRETS_KEY) and is refused from now on',
      );
    }
    const hook = await run(['webhooks', 'rotate-secret', endpointId], { SECRETS_KEY: NEW });
    expect(hook.code).toBe(0);
    const rekeyed = await run(['secrets', 'rotate-key'], { SECRETS_KEY: NEW });
    expect(rekeyed.code).toBe(0);
    expect(rekeyed.err).toBe('');
  });
});
