import { crc32, deflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import type { Caller } from '../../src/kernel/caller';
import type { OutboxMessage } from '../../src/areas/outbox/outbox.types';
import type { TestApp } from './http';

/** A PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * An 8-bit RGBA PNG as a canvas exports one: transparent, with dark ink where `ink(x, y)` holds
 * (by default a diagonal stroke three pixels wide).
 */
export function signaturePng(
  width = 240,
  height = 80,
  ink: (x: number, y: number) => boolean = (x, y) => Math.abs(y - Math.round((x * height) / width)) <= 1,
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    raw[row] = 0; // no filter
    for (let x = 0; x < width; x++) {
      if (!ink(x, y)) continue;
      const p = row + 1 + x * 4;
      raw[p] = 17;
      raw[p + 1] = 17;
      raw[p + 2] = 17;
      raw[p + 3] = 255;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** The signing token a queued message carries (its page link, or the short one a text message has). */
export function tokenOf(message: Pick<OutboxMessage, 'content'>): string {
  const match = /\/(?:sign|s)\/([A-Za-z0-9_-]{43})/.exec(message.content?.text ?? '');
  if (!match) throw new Error(`no signing link in: ${message.content?.text}`);
  return match[1];
}

/** The world's caller, for service calls. */
export function callerOf(t: TestApp): Caller {
  return { clientId: t.world.client.id, companyId: t.world.company.id, name: 'desk' };
}

/** Queues an e-sign message through the service and answers it with its token. */
export async function sendLink(
  t: TestApp,
  eventId: string,
  recipient: { email?: string; smsNumber?: string } = { email: 'grace@example.com' },
  facilityId = t.world.facility.id,
): Promise<{ message: OutboxMessage; token: string }> {
  const facility = await t.services.facilities.facilityFor(callerOf(t), facilityId);
  const [message] = await t.services.esign.sendEsignableDocuments(facility, { eventId, ...recipient });
  return { message, token: tokenOf(message) };
}

export interface SigningForm {
  name?: string;
  consent?: string;
  signature?: string;
}

/** The form as a browser sends it; a same-origin submission unless headers say otherwise. */
export function postForm(
  t: Pick<TestApp, 'app'>,
  token: string,
  form: SigningForm | string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const payload =
    typeof form === 'string'
      ? form
      : new URLSearchParams(
          Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ).toString();
  return t.app.inject({
    method: 'POST',
    url: `/sign/${token}`,
    // A header given as '' is left out.
    headers: Object.fromEntries(
      Object.entries({
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        'user-agent': 'Mozilla/5.0 (test)',
        ...headers,
      }).filter(([, value]) => value !== ''),
    ),
    payload,
  });
}

export const goodForm = (): SigningForm => ({
  name: 'Grace Hopper',
  consent: 'yes',
  signature: dataUrl(signaturePng()),
});

/** Rows of every e-sign table and the link's state: what a refused request must leave unchanged. */
export async function signingState(t: TestApp): Promise<Record<string, unknown>> {
  const db = t.db.store.db;
  const count = async (table: 'esign_audit_events' | 'esign_signed_documents' | 'esign_links') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const links = await db
    .selectFrom('esign_links')
    .select(['message_id', 'first_viewed_at', 'revoked_at', 'completed_at'])
    .orderBy('message_id')
    .execute();
  return {
    audit: await count('esign_audit_events'),
    signed: await count('esign_signed_documents'),
    links,
  };
}
