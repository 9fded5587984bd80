import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../src/config';
import { createOutboxWorker } from '../../../src/outbox.runtime';
import { buildUnit } from '../../support/factories';
import { createTestApp } from '../../support/http';

const ROOT = path.resolve(__dirname, '../../..');

/** The receiver of docs/webhooks.md, on a free loopback port instead of 8080. */
function docsReceiver(): string {
  const docs = readFileSync(path.join(ROOT, 'docs', 'webhooks.md'), 'utf8');
  const example = /```js\n([\s\S]*?)```/.exec(docs)?.[1];
  if (!example?.includes('.listen(8080);')) throw new Error('docs/webhooks.md has no receiver example');
  return example.replace(
    '.listen(8080);',
    ".listen(0, '127.0.0.1', function () { console.log(`port ${this.address().port}`); });",
  );
}

describe('the receiver example of docs/webhooks.md', () => {
  it('verifies and handles a real delivery, once per webhook-id, and refuses a forged one', async () => {
    const t = await createTestApp('sqlite', { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    const unit = buildUnit({ facility_id: t.world.facility.id });
    await t.load({ units: [unit] });
    // The library checks timestamps against the real clock; the service's starts at it.
    const { secret } = await t.services.webhooks.createEndpoint(t.world.company.id, {
      url: 'http://127.0.0.1:1/placeholder',
      eventTypes: ['note.created'],
    });
    const child = spawn(process.execPath, ['-e', docsReceiver()], {
      cwd: ROOT,
      env: { ...process.env, WEBHOOK_SECRET: secret, NODE_PATH: path.join(ROOT, 'node_modules') },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      while (!/port \d+/.test(output)) await new Promise((resolve) => setTimeout(resolve, 20));
      const port = /port (\d+)/.exec(output)![1];
      await t.db.store.db
        .updateTable('webhook_endpoints')
        .set({ url: `http://127.0.0.1:${port}/hooks` })
        .execute();

      const note = await t.postJson(`/v1/${t.world.facility.id}/notes`, {
        note: { note_text: 'Read by the docs example', unit_id: unit.id },
      });
      expect(note.statusCode).toBe(200);
      const worker = createOutboxWorker(
        t.services,
        loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '60000' }),
        { id: 'docs' },
      );
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
      const [delivery] = await t.db.store.db.selectFrom('outbox_messages').selectAll().execute();
      expect(delivery).toMatchObject({ status: 'sent', response_code: 204 });
      // Replayed: accepted again, handled once.
      await t.services.webhooks.replay('operator', delivery.id);
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
      while (!output.includes('note.created')) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(output.match(/note\.created/g)).toHaveLength(1);
      expect(output).toContain('Read by the docs example');

      const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
        method: 'POST',
        headers: {
          'webhook-id': delivery.id,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,bm90IHRoZSByaWdodCBzaWduYXR1cmUgYXQgYWxs',
        },
        body: JSON.stringify({ type: 'note.created', timestamp: '2026-01-01T00:00:00Z', data: {} }),
      });
      expect(forged.status).toBe(400);
    } finally {
      child.kill();
      await exited;
      await t.close();
    }
  });
});
