import { CacheMemory } from '../../src/caching/cache-memory';
import { PageCache, type CachedPage } from '../../src/caching/page-cache';
import type { RevisionsRepository } from '../../src/store/repositories/revisions.repository';

/** Revision counters held in memory: what the triggers keep in the database. */
function counters() {
  const tokens = new Map<string, string>();
  /** Whether a token can be read without waiting (as on SQLite outside a transaction). */
  let readable = true;
  const repository = {
    token: async (scope: string) => tokens.get(scope) ?? '0.0',
    tokenNow: (scope: string) => (readable ? (tokens.get(scope) ?? '0.0') : null),
  } as unknown as RevisionsRepository;
  return {
    repository,
    set: (scope: string, token: string) => tokens.set(scope, token),
    readableNow: (value: boolean) => (readable = value),
  };
}

const page = (text: string): CachedPage<{ text: string }> => ({ bytes: Buffer.from(text), meta: { text } });

describe('PageCache', () => {
  it('builds a page once per revision and again after the revision changes', async () => {
    const { repository, set } = counters();
    const cache = new PageCache(repository, new CacheMemory(1024 * 1024));
    const build = jest.fn(async () => page('v1'));
    await cache.get('rate_changes', 'k', build);
    await cache.get('rate_changes', 'k', build);
    expect(build).toHaveBeenCalledTimes(1);
    set('rate_changes', '0.1');
    const rebuilt = await cache.get('rate_changes', 'k', async () => page('v2'));
    expect(rebuilt.bytes.toString()).toBe('v2');
  });

  it('builds once for requests that ask for the same page at the same time', async () => {
    const { repository } = counters();
    const cache = new PageCache(repository, new CacheMemory(1024 * 1024));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const build = jest.fn(async () => {
      await gate;
      return page('once');
    });
    const asked = Promise.all([1, 2, 3].map(() => cache.get('items:f', 'k', build)));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const pages = await asked;
    expect(build).toHaveBeenCalledTimes(1);
    expect(pages.map((p) => p.meta.text)).toEqual(['once', 'once', 'once']);
  });

  it('keeps nothing from a build that failed: the next request builds again', async () => {
    const { repository } = counters();
    const cache = new PageCache(repository, new CacheMemory(1024 * 1024));
    await expect(
      cache.get('items:f', 'k', async () => {
        throw new Error('database gone');
      }),
    ).rejects.toThrow('database gone');
    expect((await cache.get('items:f', 'k', async () => page('ok'))).meta.text).toBe('ok');
    expect(cache.size).toBeGreaterThan(0);
  });

  it('stays within its bytes, dropping first the oldest page not asked for since it was kept', async () => {
    const { repository } = counters();
    const cache = new PageCache(repository, new CacheMemory(8 * 1024));
    const big = (name: string) => async () => page(name.padEnd(1500, '.'));
    await cache.get('items:f', 'a', big('a'));
    await cache.get('items:f', 'b', big('b'));
    await cache.get('items:f', 'c', big('c'));
    await cache.get('items:f', 'a', big('a')); // a is now the most recent
    await cache.get('items:f', 'd', big('d'));
    await cache.get('items:f', 'e', big('e'));
    expect(cache.size).toBeLessThanOrEqual(8 * 1024);
    const rebuilt: string[] = [];
    for (const key of ['a', 'b', 'e']) {
      await cache.get('items:f', key, async () => {
        rebuilt.push(key);
        return page(key);
      });
    }
    expect(rebuilt).toEqual(['b']);
  });

  it('counts every part of a page kept in parts', async () => {
    const { repository } = counters();
    const cache = new PageCache(repository, new CacheMemory(8 * 1024));
    const parts = [Buffer.from('['), Buffer.alloc(1000, 'x'), Buffer.alloc(1000, 'y'), Buffer.from(']')];
    await cache.get('items:f', 'parts', async () => ({ bytes: parts, meta: null }));
    // 2,002 bytes in four parts, and the entry's own: more than a quarter of 8 KiB, so not kept.
    expect(cache.size).toBe(0);
    await cache.get('items:f', 'part', async () => ({ bytes: parts.slice(0, 2), meta: null }));
    expect(cache.size).toBeGreaterThanOrEqual(1001);
  });

  it('keeps no page larger than a quarter of its bytes, and nothing at all when sized 0', async () => {
    const { repository } = counters();
    const small = new PageCache(repository, new CacheMemory(4 * 1024));
    await small.get('items:f', 'huge', async () => page('x'.repeat(2000)));
    expect(small.size).toBe(0);
    const off = new PageCache(repository, new CacheMemory(0));
    const build = jest.fn(async () => page('fresh'));
    await off.get('items:f', 'k', build);
    await off.get('items:f', 'k', build);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('answers a kept page without waiting only while its revision is unchanged and can be read', async () => {
    const { repository, set, readableNow } = counters();
    const cache = new PageCache(repository, new CacheMemory(1024 * 1024));
    const seen: string[] = [];
    expect(cache.keptNow('items:f', 'k', (token) => seen.push(token))).toBeNull();
    await cache.get('items:f', 'k', async () => page('v1'));
    expect(cache.keptNow<{ text: string }>('items:f', 'k', (token) => seen.push(token))?.meta.text).toBe(
      'v1',
    );
    expect(seen).toEqual(['0.0']);
    set('items:f', '0.1');
    expect(cache.keptNow('items:f', 'k')).toBeNull();
    await cache.get('items:f', 'k', async () => page('v2'));
    readableNow(false);
    expect(cache.keptNow('items:f', 'k')).toBeNull();
    readableNow(true);
    expect(cache.keptNow<{ text: string }>('items:f', 'k')?.meta.text).toBe('v2');
    expect(new PageCache(repository, new CacheMemory(0)).keptNow('items:f', 'k')).toBeNull();
  });

  it('gives the first request a slot to fill; the others wait for what fills it, then find it kept', async () => {
    const { repository, set } = counters();
    const cache = new PageCache(repository, new CacheMemory(1024 * 1024));
    const tokens: string[] = [];
    const first = await cache.open<{ text: string }>('items:f', 'k', (token) => tokens.push(token));
    expect(first.page).toBeNull();
    const waiting = cache.open<{ text: string }>('items:f', 'k');
    if (first.page !== null) throw new Error('a slot was expected');
    first.keep(page('built'));
    expect((await waiting).page?.meta.text).toBe('built');
    expect((await cache.open<{ text: string }>('items:f', 'k')).page?.meta.text).toBe('built');
    expect(tokens).toEqual(['0.0']);
    set('items:f', '0.1');
    expect((await cache.open('items:f', 'k')).page).toBeNull();
  });

  it('fails the requests waiting on a slot with its error, and keeps nothing', async () => {
    const { repository } = counters();
    const cache = new PageCache(repository, new CacheMemory(1024 * 1024));
    const first = await cache.open('items:f', 'k');
    const waiting = cache.open('items:f', 'k');
    if (first.page !== null) throw new Error('a slot was expected');
    first.fail(new Error('database gone'));
    await expect(waiting).rejects.toThrow('database gone');
    expect((await cache.open('items:f', 'k')).page).toBeNull();
  });
});
