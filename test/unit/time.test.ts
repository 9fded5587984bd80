import { formatInstant, isValidDate, localDate, parseOffsetDateTime } from '../../src/kernel/time';
import { pageMeta, parsePageRequest } from '../../src/kernel/pagination';

/** Zones with daylight saving (one by half an hour), a 45-minute offset, a half-hour one, and UTC. */
const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'UTC',
];

describe('dates and instants', () => {
  it('accepts only real calendar dates', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2025-02-29')).toBe(false);
    expect(isValidDate('2026-13-01')).toBe(false);
    expect(isValidDate('2026-1-01')).toBe(false);
    expect(isValidDate("2026-01-01' OR 1=1")).toBe(false);
    // Years 0 to 99 are those years, not 1900 to 1999 (0004 leap, 0100 not).
    expect(isValidDate('0001-01-01')).toBe(true);
    expect(isValidDate('0099-12-31')).toBe(true);
    expect(isValidDate('0004-02-29')).toBe(true);
    expect(isValidDate('0100-02-29')).toBe(false);
  });

  it('parses date-times with an offset into UTC, and refuses those without', () => {
    expect(parseOffsetDateTime('2026-03-01T09:30:00-05:00')).toBe('2026-03-01T14:30:00.000Z');
    expect(parseOffsetDateTime('2026-03-01T09:30:00Z')).toBe('2026-03-01T09:30:00.000Z');
    expect(parseOffsetDateTime('2026-03-01T09:30:00.25+0130')).toBe('2026-03-01T08:00:00.250Z');
    expect(parseOffsetDateTime('2026-03-01T09:30:00')).toBeNull();
    expect(parseOffsetDateTime('2026-02-30T09:30:00Z')).toBeNull();
    expect(parseOffsetDateTime('2026-03-01T24:00:00Z')).toBeNull();
    expect(parseOffsetDateTime('0099-01-01T00:00:00Z')).toBe('0099-01-01T00:00:00.000Z');
    expect(parseOffsetDateTime('0001-01-01T00:30:00+01:00')).toBe('0000-12-31T23:30:00.000Z');
  });

  it('writes instants in the facility zone with its offset, across daylight saving', () => {
    expect(formatInstant('2026-01-15T17:00:00.000Z', 'America/New_York')).toBe('2026-01-15T12:00:00-05:00');
    expect(formatInstant('2026-07-15T16:00:00.000Z', 'America/New_York')).toBe('2026-07-15T12:00:00-04:00');
    expect(formatInstant('2026-07-15T16:00:00.500Z', 'Asia/Kolkata')).toBe('2026-07-15T21:30:00.500+05:30');
    expect(formatInstant('2026-07-15T16:00:00.000Z', 'UTC')).toBe('2026-07-15T16:00:00+00:00');
  });

  it('writes each side of a transition with its own offset, whatever was written before that day', () => {
    // Later instants of the transition day first: the day's offsets must not stick to one value.
    const cases: Array<[string, string, string]> = [
      ['2026-03-08T23:00:00.000Z', 'America/New_York', '2026-03-08T19:00:00-04:00'],
      ['2026-03-08T06:59:59.999Z', 'America/New_York', '2026-03-08T01:59:59.999-05:00'],
      ['2026-03-08T07:00:00.000Z', 'America/New_York', '2026-03-08T03:00:00-04:00'],
      ['2026-03-08T00:00:00.000Z', 'America/New_York', '2026-03-07T19:00:00-05:00'],
      ['2026-11-01T05:59:59.000Z', 'America/New_York', '2026-11-01T01:59:59-04:00'],
      ['2026-11-01T06:00:00.000Z', 'America/New_York', '2026-11-01T01:00:00-05:00'],
      ['2026-10-25T00:59:59.000Z', 'Europe/London', '2026-10-25T01:59:59+01:00'],
      ['2026-10-25T01:00:00.000Z', 'Europe/London', '2026-10-25T01:00:00+00:00'],
      ['2026-04-04T15:00:00.000Z', 'Australia/Lord_Howe', '2026-04-05T01:30:00+10:30'],
      ['2026-04-04T14:59:00.000Z', 'Australia/Lord_Howe', '2026-04-05T01:59:00+11:00'],
      ['2026-04-05T13:59:00.000Z', 'Pacific/Auckland', '2026-04-06T01:59:00+12:00'],
      ['2026-04-04T13:59:00.000Z', 'Pacific/Auckland', '2026-04-05T02:59:00+13:00'],
      ['2026-04-04T14:00:00.000Z', 'Pacific/Auckland', '2026-04-05T02:00:00+12:00'],
    ];
    for (const [stored, zone, expected] of cases) expect(formatInstant(stored, zone)).toBe(expected);
  });

  it("takes a facility's today from its own zone", () => {
    const instant = new Date('2026-11-21T03:00:00Z');
    expect(localDate(instant, 'America/Los_Angeles')).toBe('2026-11-20');
    expect(localDate(instant, 'Pacific/Auckland')).toBe('2026-11-21');
  });

  it("agrees with Intl's calendar date at every quarter hour of a year, transitions included", () => {
    for (const zone of ZONES) {
      const intl = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      const wrong: string[] = [];
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 15 * 60_000) {
        const instant = new Date(ms);
        if (localDate(instant, zone) !== intl.format(instant)) wrong.push(`${zone} ${instant.toISOString()}`);
      }
      expect(wrong).toEqual([]);
    }
  });

  it("agrees with Intl's local time and offset at every 37 minutes and 13 ms of a year, and at the last stored instant", () => {
    /** The local time with its offset as Intl writes them, built without formatInstant's code. */
    const formatters = new Map<string, Intl.DateTimeFormat>();
    const expected = (ms: number, zone: string) => {
      let formatter = formatters.get(zone);
      if (!formatter) {
        formatter = new Intl.DateTimeFormat('en-US', {
          timeZone: zone,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          timeZoneName: 'longOffset',
        });
        formatters.set(zone, formatter);
      }
      const parts = Object.fromEntries(
        formatter.formatToParts(new Date(ms)).map((part) => [part.type, part.value]),
      );
      const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.slice(3);
      const millis = ms % 1000 === 0 ? '' : `.${String(((ms % 1000) + 1000) % 1000).padStart(3, '0')}`;
      const year = parts.year.padStart(4, '0');
      return `${year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${millis}${offset}`;
    };
    const instants: number[] = [];
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 37 * 60_000 + 13) instants.push(ms);
    instants.push(Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(1970, 0, 1, 0, 0, 0, 1));
    for (const zone of ZONES) {
      const wrong: string[] = [];
      for (const ms of instants) {
        const stored = new Date(ms).toISOString();
        const want = expected(ms, zone);
        if (formatInstant(stored, zone) !== want)
          wrong.push(`${zone} ${stored}: ${formatInstant(stored, zone)} not ${want}`);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    }
  });
});

describe('will_paginate pages', () => {
  it('computes pages, with one page for an empty list and nulls at the ends', () => {
    expect(pageMeta(0, { page: 1, perPage: 100 })).toEqual({
      current_page: 1,
      total_pages: 1,
      per_page: 100,
      total_entries: 0,
      previous_page: null,
      next_page: null,
    });
    expect(pageMeta(250, { page: 2, perPage: 100 })).toMatchObject({
      total_pages: 3,
      previous_page: 1,
      next_page: 3,
    });
    expect(pageMeta(250, { page: 9, perPage: 100 })).toMatchObject({ previous_page: 8, next_page: null });
  });

  it('reads page and per_page strictly, capping per_page at the maximum', () => {
    const limits = { defaultPerPage: 100, maxPerPage: 100 };
    expect(parsePageRequest({}, limits)).toEqual({ page: 1, perPage: 100 });
    expect(parsePageRequest({ page: '3', perPage: '500' }, limits)).toEqual({ page: 3, perPage: 100 });
    for (const page of ['0', '-1', '1.5', 'abc', '', '1e3']) {
      expect(() => parsePageRequest({ page }, limits)).toThrow(/page/);
    }
    expect(() => parsePageRequest({ perPage: '0' }, limits)).toThrow(/per_page/);
    // Any number of digits above the maximum reads as the maximum; a page past 15 digits is refused saying so.
    expect(parsePageRequest({ perPage: '1'.repeat(40) }, limits)).toEqual({ page: 1, perPage: 100 });
    expect(parsePageRequest({ page: '0002', perPage: '000000000000000050' }, limits)).toEqual({
      page: 2,
      perPage: 50,
    });
    expect(() => parsePageRequest({ perPage: '0'.repeat(20) }, limits)).toThrow(
      /per_page must be a whole number >= 1/,
    );
    expect(() => parsePageRequest({ page: '9'.repeat(16) }, limits)).toThrow(
      /page must be at most 999999999999999/,
    );
  });
});
