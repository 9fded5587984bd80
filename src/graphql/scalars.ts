import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import {
  GraphQLEmailAddress,
  GraphQLLocalDate,
  GraphQLNonNegativeInt,
  GraphQLPhoneNumber,
  GraphQLTimeZone,
  GraphQLUUID,
} from 'graphql-scalars';
import { amountToCents } from '../kernel/money';
import { parseOffsetDateTime } from '../kernel/time';

/**
 * A scalar that checks only the shape of what it writes: output values come from stored data the
 * import and the services already validated, and a full re-validation of every value (the
 * graphql-scalars serializers parse dates) measured about a sixth of a 500-row answer's time.
 * Inputs are checked in full, as the library does.
 */
function withShapeCheckedOutput(scalar: GraphQLScalarType, shape: RegExp): GraphQLScalarType {
  const config = scalar.toConfig();
  return new GraphQLScalarType({
    ...config,
    serialize(value) {
      if (typeof value === 'string' && shape.test(value)) return value;
      return config.serialize(value);
    },
  });
}

/**
 * Scalars of the schema. From graphql-scalars: UUID, LocalDate (`YYYY-MM-DD`, the facility's
 * calendar date; these two write without re-validating, see above), TimeZone (IANA),
 * NonNegativeInt, EmailAddress, and PhoneNumber (E.164 only: stored tenant phones are free text and
 * stay String).
 */
export const UUIDScalar = withShapeCheckedOutput(
  GraphQLUUID,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
);
export const LocalDateScalar = withShapeCheckedOutput(GraphQLLocalDate, /^\d{4}-\d{2}-\d{2}$/);
export const TimeZoneScalar = GraphQLTimeZone;
export const NonNegativeIntScalar = GraphQLNonNegativeInt;
export const EmailAddressScalar = GraphQLEmailAddress;
export const PhoneNumberScalar = GraphQLPhoneNumber;

function inputError(message: string, node?: ValueNode): GraphQLError {
  return new GraphQLError(message, { nodes: node });
}

const WRITTEN_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?(Z|[+-]\d{2}:\d{2})$/;

function offsetDateTime(value: unknown, node?: ValueNode): string {
  if (typeof value !== 'string' || parseOffsetDateTime(value) === null) {
    throw inputError(
      'DateTime must be an ISO 8601 date-time with a UTC offset, such as 2026-03-01T09:30:00-05:00',
      node,
    );
  }
  return value;
}

/**
 * graphql-scalars' DateTime turns every value into UTC and drops the offset; the API writes instants
 * in the facility's zone with its offset (as REST does), so this one passes valid strings through.
 * Inputs stay strings too: the domain services parse them, as they do for REST.
 */
export const DateTimeScalar = new GraphQLScalarType<string, string>({
  name: 'DateTime',
  description:
    'An instant as an RFC 3339 date-time with its UTC offset, such as `2026-03-01T09:30:00-05:00`; ' +
    "written in the facility's time zone.",
  specifiedByURL: 'https://datatracker.ietf.org/doc/html/rfc3339#section-5.6',
  serialize(value) {
    if (value instanceof Date) return value.toISOString();
    // The services write instants with formatInstant; only their shape is checked here.
    if (typeof value === 'string' && WRITTEN_INSTANT.test(value)) return value;
    return offsetDateTime(value);
  },
  parseValue: (value) => offsetDateTime(value),
  parseLiteral(node) {
    if (node.kind !== Kind.STRING) throw inputError('DateTime must be a string', node);
    return offsetDateTime(node.value, node);
  },
});

function money(value: unknown, node?: ValueNode): number {
  const amount = typeof value === 'string' && /^-?\d+(\.\d{1,2})?$/.test(value) ? Number(value) : value;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amountToCents(amount) === null) {
    throw inputError('Money must be a number with at most two decimals, such as 12.5 or 12.50', node);
  }
  return amount;
}

/**
 * Money as a JSON number of currency units with at most two decimals (cents / 100), exactly as the
 * REST contract writes amounts: `12.5` is twelve fifty. Kept in integer cents below, so the value
 * is always exact; a value with more decimals is a server fault, never rounded silently.
 */
export const MoneyScalar = new GraphQLScalarType<number, number>({
  name: 'Money',
  description:
    'An amount of money in currency units with at most two decimals, as a JSON number (12.5 is twelve fifty). ' +
    'Input also accepts a decimal string such as "12.50".',
  serialize(value) {
    if (typeof value !== 'number' || !Number.isFinite(value) || amountToCents(value) === null) {
      throw new Error(`Money cannot represent ${String(value)}`);
    }
    return value;
  },
  parseValue: (value) => money(value),
  parseLiteral(node) {
    if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return money(Number(node.value), node);
    if (node.kind === Kind.STRING) return money(node.value, node);
    throw inputError('Money must be a number', node);
  },
});
