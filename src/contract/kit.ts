import { Type, type Static, type TSchema } from '@sinclair/typebox';

/*
 * The parts the contract's schemas are made of. Each is a TypeBox schema: JSON Schema as it is
 * (Fastify's ajv validates with it, @fastify/swagger documents it) that also carries its
 * TypeScript type (`Static`). OpenAPI 3.0 says null with `nullable: true` beside the type, which
 * ajv reads too, so a nullable schema is the same schema with that key, not an `anyOf` (whose
 * validation messages would name no rule).
 */

/** The schema, or null: `nullable: true` beside its keys. */
export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });

/** One of these strings (a JSON Schema `enum`, not a union of literals). */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

function idOf(schema: TSchema): string {
  if (schema.$id === undefined) throw new Error('only a shared schema (one with an $id) is referred to');
  return `${schema.$id}#`;
}

/** A shared schema (one with an `$id`, a component of the document) by reference. */
export const RefTo = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T>>({ $ref: idOf(schema) });

/** A shared schema, or null (OpenAPI 3.0 puts `nullable` beside `allOf`, since `$ref` takes no siblings). */
export const NullableRefTo = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ type: 'object', nullable: true, allOf: [{ $ref: idOf(schema) }] });

export const Text = (options: { description?: string } = {}) => Type.String(options);
/** An object of strings under these keys, each required, in this order. */
export const TextFields = <Key extends string>(keys: readonly Key[]) =>
  Type.Unsafe<Record<Key, string>>(Type.Object(Object.fromEntries(keys.map((key) => [key, Text()]))));
export const NullableText = () => Nullable(Type.String());
export const Money = () => Type.Number({ description: 'In currency units, at most two decimals' });
export const Day = () => Type.String({ format: 'date' });
export const Instant = () =>
  Type.String({ format: 'date-time', description: "In the facility's time zone, with its offset" });
export const Uuid = () => Type.String({ format: 'uuid' });

/** An object whose keys are not known in advance (an echo of what the caller sent, say). */
export const OpenObject = (options: { description?: string; additionalProperties?: true } = {}) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', ...options });
