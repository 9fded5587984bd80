import { KeptBodies } from '../../src/graphql/kept-bodies';
import type { Caller } from '../../src/kernel/caller';

const caller: Caller = { clientId: 'client-1', companyId: 'company-1', name: 'front end' };
const json = { headers: { 'content-type': 'application/json' } };

/** An operation's body text: the same length for every `n` of the same number of digits. */
const text = (n: number) => JSON.stringify({ query: `query Q${n} { facility(id: "x") { id } }` });

describe('KeptBodies', () => {
  it('finds a remembered text by its bytes, sent with the same Content-Type and Accept', () => {
    const bodies = new KeptBodies();
    bodies.remember(json, text(10), caller, false, 'key-10', 'Q10');
    expect(bodies.find(json, Buffer.from(text(10)))?.keys.get('company-1')).toBe('key-10');
    // The same length, other bytes; the same bytes with another Accept or Content-Type.
    expect(bodies.find(json, Buffer.from(text(11)))).toBeUndefined();
    expect(
      bodies.find({ headers: { ...json.headers, accept: 'text/plain' } }, Buffer.from(text(10))),
    ).toBeUndefined();
    expect(bodies.find({ headers: { 'content-type': 'text/plain' } }, Buffer.from(text(10)))).toBeUndefined();
  });

  it('finds a text with characters past ASCII by its UTF-8 bytes, and not a body whose bytes only decode to it', () => {
    const bodies = new KeptBodies();
    const named = JSON.stringify({
      query: '{ facility(id: "x") { id } }',
      operationName: null,
      extensions: { note: 'Zürich' },
    });
    bodies.remember(json, named, caller, false, 'key', 'other');
    expect(bodies.find(json, Buffer.from(named, 'utf8'))).toBeDefined();
    // A cut four-byte sequence decodes to U+FFFD, as U+FFFD's own three bytes do: of the same
    // length and the same text, the body is still not the bytes remembered.
    const replaced = named.replace('ü', '\uFFFD');
    bodies.remember(json, replaced, caller, false, 'key-replaced', 'other');
    const [before, after] = named.split('ü');
    const invalid = Buffer.concat([Buffer.from(before), Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from(after)]);
    expect(invalid.toString('utf8')).toBe(replaced);
    expect(invalid.length).toBe(Buffer.byteLength(replaced));
    expect(bodies.find(json, Buffer.from(replaced))?.keys.get('company-1')).toBe('key-replaced');
    expect(bodies.find(json, invalid)).toBeUndefined();
  });

  it('holds at most sixteen texts of one length, letting the oldest go', () => {
    const bodies = new KeptBodies();
    for (let n = 10; n < 27; n++) bodies.remember(json, text(n), caller, false, `key-${n}`, `Q${n}`);
    expect(bodies.size).toBe(16);
    expect(bodies.find(json, Buffer.from(text(10)))).toBeUndefined();
    for (let n = 11; n < 27; n++) expect(bodies.find(json, Buffer.from(text(n)))?.operation).toBe(`Q${n}`);
  });

  it("remembers a text run as a client's trusted document for that client alone, once it is", () => {
    const bodies = new KeptBodies();
    bodies.remember(json, text(10), caller, false, 'by-company', 'Q10');
    bodies.remember(json, text(10), caller, true, 'by-client', 'Q10');
    const known = bodies.find(json, Buffer.from(text(10)))!;
    expect(known.byClient).toBe(true);
    expect([...known.keys]).toEqual([['client-1', 'by-client']]);
    expect(bodies.size).toBe(1);
  });
});
