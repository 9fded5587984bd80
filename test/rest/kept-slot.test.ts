import type { preHandlerHookHandler } from 'fastify';
import { sendOk, sendOkSerialized } from '../../src/rest/envelope';
import { keepingHandler } from '../../src/rest/kept-pages';
import { createTestApp, type TestApp } from '../support/http';

/**
 * The slot of a page a kept route's handler builds (see keptPagesHook): filled by the answer that
 * sends the page, failed by one that does not; never both, and nothing made for a filled one.
 */
describe("a kept route's page slot", () => {
  let t: TestApp;
  const slot = { keep: jest.fn(), fail: jest.fn() };

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      prepare: (app) => {
        const withSlot: preHandlerHookHandler = (request, _reply, done) => {
          request.envelope.keeping = slot;
          done();
        };
        app.get(
          '/slot/sent',
          { preHandler: withSlot },
          keepingHandler(async (request, reply) =>
            sendOkSerialized(request, reply, Buffer.from('"answer":42')),
          ),
        );
        app.get(
          '/slot/unsent',
          { preHandler: withSlot },
          keepingHandler(async (request, reply) => sendOk(request, reply, { answer: 42 })),
        );
      },
    });
  });
  afterAll(() => t.close());
  beforeEach(() => jest.clearAllMocks());

  it('is filled by the answer that sends the page, and then not failed', async () => {
    const res = await t.get('/slot/sent');
    expect(res.statusCode).toBe(200);
    expect(res.json().answer).toBe(42);
    expect(slot.keep).toHaveBeenCalledTimes(1);
    expect(slot.keep.mock.calls[0][0].bytes.toString()).toBe('"answer":42');
    expect(slot.fail).not.toHaveBeenCalled();
  });

  it('is failed when the handler answers without sending the page', async () => {
    const res = await t.get('/slot/unsent');
    expect(res.statusCode).toBe(200);
    expect(slot.keep).not.toHaveBeenCalled();
    expect(slot.fail).toHaveBeenCalledTimes(1);
    expect(String(slot.fail.mock.calls[0][0])).toContain('/slot/unsent answered without sending its page');
  });
});
