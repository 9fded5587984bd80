/**
 * Dates are `YYYY-MM-DD` strings; instants are stored as UTC `YYYY-MM-DDTHH:mm:ss.sssZ`, which sorts
 * lexically, and are written out in the facility's time zone with its UTC offset.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date in `YYYY-MM-DD` form. */
export function isValidDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
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
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
}

// Zones change offset at most once a day, so a UTC day whose first and last millisecond share an
// offset has it throughout: one cached number per zone and day (null on a transition day, where
// each instant is asked of Intl: two days a year in zones with daylight saving time).
const dayOffsets = new Map<string, Map<number, number | null>>();

/** Minutes east of UTC of the zone at that instant. */
export function offsetMinutes(instant: Date, zone: string): number {
  const ms = instant.getTime();
  const day = Math.floor(ms / DAY_MS);
  let days = dayOffsets.get(zone);
  let offset = days?.get(day);
  if (offset === undefined) {
    const first = zoneOffsetAt(day * DAY_MS, zone);
    offset = first === zoneOffsetAt(day * DAY_MS + DAY_MS - 1, zone) ? first : null;
    if (!days) {
      days = new Map();
      dayOffsets.set(zone, days);
    }
    if (days.size > 100_000) days.clear();
    days.set(day, offset);
  }
  return offset ?? zoneOffsetAt(ms, zone);
}

/** A stored UTC instant written in the zone's local time with its offset: `2026-03-01T09:30:00-05:00`. */
export function formatInstant(stored: string, zone: string): string {
  const instant = new Date(stored);
  const offset = offsetMinutes(instant, zone);
  const local = new Date(instant.getTime() + offset * 60000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const millis = local.getUTCMilliseconds();
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    (millis ? `.${pad(millis, 3)}` : '') +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
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
  const utc = Date.UTC(y, mo - 1, d, h, mi, s) + Math.floor(fraction * 1000) - offset * 60000;
  const instant = new Date(utc);
  if (Number.isNaN(instant.getTime())) return null;
  return instant.toISOString();
}
