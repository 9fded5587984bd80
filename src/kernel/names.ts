/** A camelCase name in snake_case, as a type: `effectiveDate` -> `effective_date`. */
export type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

/** A camelCase name in snake_case: `effectiveDate` -> `effective_date`. */
export function snakeCase<Name extends string>(name: Name): SnakeCase<Name> {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) as SnakeCase<Name>;
}

/** A snake_case name in camelCase, as a type: `effective_date` -> `effectiveDate`. */
export type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;

/** A snake_case name in camelCase: `effective_date` -> `effectiveDate`. */
export function camelCase<Name extends string>(name: Name): CamelCase<Name> {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()) as CamelCase<Name>;
}

/** A record with its keys, and those of every object and array of objects in it, in camelCase. */
export type CamelCased<T> = T extends readonly (infer Element)[]
  ? CamelCased<Element>[]
  : T extends object
    ? { -readonly [Key in keyof T as Key extends string ? CamelCase<Key> : never]: CamelCased<T[Key]> }
    : T;

/** A record with its keys, and those of every object and array of objects in it, in snake_case. */
export type SnakeCased<T> = T extends readonly (infer Element)[]
  ? SnakeCased<Element>[]
  : T extends object
    ? { -readonly [Key in keyof T as Key extends string ? SnakeCase<Key> : never]: SnakeCased<T[Key]> }
    : T;

/** How both stores keep a boolean: 0 or 1 (see src/store/schema.ts). */
export type Flag = 0 | 1;

type Read<Value> = [Value] extends [Flag] ? boolean : [Value] extends [Flag | null] ? boolean | null : Value;

/**
 * The record a table's row reads into (src/store/rows.ts): each column under its camelCase name,
 * flags as booleans, the columns named by `Left` left out. A record's fields are its columns'.
 */
export type RecordOf<Row, Left extends keyof Row = never> = {
  -readonly [Column in Exclude<keyof Row, Left> & string as CamelCase<Column>]: Read<Row[Column]>;
};
