/**
 * Dates are `YYYY-MM-DD` strings; instants are stored as UTC `YYYY-MM-DDTHH:mm:ss.sssZ`, which sorts
 * lexically, and are written out in the facility's time zone with its UTC offset.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Milliseconds since the epoch of a UTC time, as Date.UTC, but a year of 0 to 99 is that year:
 * Date.UTC reads it as 1900 to 1999.
 */
export function utcMillis(year: number, monthIndex: number, day: number, h = 0, mi = 0, s = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

/** True for a real calendar date in `YYYY-MM-DD` form (years 0000 to 9999). */
export function isValidDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(utcMillis(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

function zoneFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(zone);
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
    });
    zoneFormatters.set(zone, formatter);
  }
  return formatter;
}

/** True when the IANA zone name is known to this runtime. */
export function isValidTimeZone(zone: string): boolean {
  try {
    zoneFormatter(zone);
    return true;
  } catch {
    return false;
  }
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(instant: Date, zone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of zoneFormatter(zone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The local calendar date in the zone at that instant: the instant moved by the zone's offset
 * (`offsetMinutes`, remembered per zone and day), read as UTC. Pages kept per day (a ledger's
 * current insurance, the default range of rate applied actions) ask it on every request; Intl is
 * asked once per zone and day.
 */
export function localDate(instant: Date, zone: string): string {
  const local = new Date(instant.getTime() + offsetMinutes(instant, zone) * 60_000);
  return `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
}

const DAY_MS = 86_400_000;

/** Minutes east of UTC of the zone at that instant (millisecond epoch), asked of Intl. */
function zoneOffsetAt(ms: number, zone: string): number {
  const p = localParts(new Date(ms), zone);
  const asUtc = utcMillis(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
}

// Zones change offset at most once a day, so a UTC day whose first and last millisecond share an
// offset has it throughout: one cached number per zone and day (null on a transition day, where
// each instant is asked of Intl: two days a year in zones with daylight saving time).
const dayOffsets = new Map<string, Map<number, number | null>>();

/** The zone's offset throughout a UTC day (days since the epoch), or null on a transition day. */
function dayOffset(zone: string, day: number): number | null {
  const days = zoneCache(dayOffsets, zone);
  let offset = days.get(day);
  if (offset === undefined) {
    const first = zoneOffsetAt(day * DAY_MS, zone);
    offset = first === zoneOffsetAt(day * DAY_MS + DAY_MS - 1, zone) ? first : null;
    days.set(day, offset);
  }
  return offset;
}

/** A zone's cache of days in `caches`, emptied once it holds more than 100,000 days. */
function zoneCache<K, V>(caches: Map<string, Map<K, V>>, zone: string): Map<K, V> {
  let days = caches.get(zone);
  if (!days) {
    days = new Map();
    caches.set(zone, days);
  } else if (days.size > 100_000) days.clear();
  return days;
}

/** Minutes east of UTC of the zone at that instant. */
export function offsetMinutes(instant: Date, zone: string): number {
  const ms = instant.getTime();
  return dayOffset(zone, Math.floor(ms / DAY_MS)) ?? zoneOffsetAt(ms, zone);
}

/** `+hh:mm` of an offset in minutes, made once per offset. */
const offsetSuffixes = new Map<number, string>();

function offsetSuffix(offset: number): string {
  let suffix = offsetSuffixes.get(offset);
  if (suffix === undefined) {
    const abs = Math.abs(offset);
    suffix = `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    offsetSuffixes.set(offset, suffix);
  }
  return suffix;
}

/** A UTC day's local dates and offset in one zone, when the offset holds all day. */
interface ZoneDay {
  offset: number;
  suffix: string;
  /** The local dates of the day before, the day itself and the day after (`YYYY-MM-DD`). */
  dates: readonly [string, string, string];
}

/** Per zone, per stored UTC date (`YYYY-MM-DD`): its ZoneDay, or null on a transition day (its offset from dayOffset). */
const zoneDays = new Map<string, Map<string, ZoneDay | null>>();

/** `HH:mm` of each minute of a day. */
const CLOCK = Array.from(
  { length: 1440 },
  (_, minute) => `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`,
);

function zoneDay(date: string, zone: string): ZoneDay | null {
  const days = zoneCache(zoneDays, zone);
  let day = days.get(date);
  if (day === undefined) {
    const start = Date.parse(`${date}T00:00:00.000Z`);
    const offset = Number.isNaN(start) ? null : dayOffset(zone, start / DAY_MS);
    day =
      offset === null
        ? null
        : {
            offset,
            suffix: offsetSuffix(offset),
            dates: [utcDate(start - DAY_MS), date, utcDate(start + DAY_MS)],
          };
    days.set(date, day);
  }
  return day;
}

const utcDate = (ms: number) => {
  const date = new Date(ms);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
};

/** The value of two ASCII digits at `at`. */
const twoDigits = (text: string, at: number) =>
  (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * A stored UTC instant written in the zone's local time with its offset: `2026-03-01T09:30:00-05:00`
 * (milliseconds only when there are some). A stored instant's clock is moved by its day's offset
 * as text, with the local dates of each UTC day and zone made once: a page of 500 rate changes
 * formats 500 instants, and going through a Date for each took a tenth of its time. Transition
 * days, and anything not in the stored form, go through the date's parts.
 */
export function formatInstant(stored: string, zone: string): string {
  if (stored.length !== 24 || stored.charCodeAt(23) !== 90 /* Z */ || stored.charCodeAt(10) !== 84 /* T */) {
    return formatInstantFromParts(new Date(stored), zone);
  }
  const day = zoneDay(stored.slice(0, 10), zone);
  if (day === null) return formatInstantFromParts(new Date(stored), zone);
  let minute = twoDigits(stored, 11) * 60 + twoDigits(stored, 14) + day.offset;
  let date = day.dates[1];
  if (minute < 0) {
    minute += 1440;
    date = day.dates[0];
  } else if (minute >= 1440) {
    minute -= 1440;
    date = day.dates[2];
  }
  const fraction = stored.endsWith('.000Z') ? '' : stored.slice(19, 23);
  return `${date}T${CLOCK[minute]}${stored.slice(16, 19)}${fraction}${day.suffix}`;
}

/** formatInstant from the date's parts, for what toISOString writes in another form (years past 9999). */
function formatInstantFromParts(instant: Date, zone: string): string {
  const offset = offsetMinutes(instant, zone);
  const local = new Date(instant.getTime() + offset * 60000);
  const millis = local.getUTCMilliseconds();
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    (millis ? `.${pad(millis, 3)}` : '') +
    offsetSuffix(offset)
  );
}

/** The stored form of an instant. */
export function toStoredInstant(instant: Date): string {
  return instant.toISOString();
}

const OFFSET_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Parses an ISO 8601 date-time that carries a UTC offset (`Z` or `+hh:mm`) into the stored form;
 * null when it is malformed, names no real time, or has no offset.
 */
export function parseOffsetDateTime(value: string): string | null {
  const match = OFFSET_DATE_TIME.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.slice(0, 7).map(Number);
  if (!isValidDate(`${match[1]}-${match[2]}-${match[3]}`) || h > 23 || mi > 59 || s > 59) return null;
  const fraction = match[7] ? Number(`0${match[7]}`) : 0;
  let offset = 0;
  const zone = match[8].toUpperCase();
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4));
    if (oh > 23 || om > 59) return null;
    offset = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const utc = utcMillis(y, mo - 1, d, h, mi, s) + Math.floor(fraction * 1000) - offset * 60000;
  const instant = new Date(utc);
  if (Number.isNaN(instant.getTime())) return null;
  return instant.toISOString();
}
