/** A camelCase name in snake_case, as a type: `effectiveDate` -> `effective_date`. */
export type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

/** A camelCase name in snake_case: `effectiveDate` -> `effective_date`. */
export function snakeCase<Name extends string>(name: Name): SnakeCase<Name> {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) as SnakeCase<Name>;
}

/**
 * Records keyed by these camelCase names, turned into and out of the snake_case that the contract
 * and the store write (`productCode` <-> `product_code`), keys in the names' order. The names are
 * turned once, here, not per record.
 */
export class SnakeCaseKeys<Name extends string> {
  private readonly pairs: ReadonlyArray<readonly [Name, SnakeCase<Name>]>;

  constructor(names: readonly Name[]) {
    this.pairs = names.map((name) => [name, snakeCase(name)] as const);
  }

  /** The names in snake_case, in order. */
  get keys(): SnakeCase<Name>[] {
    return this.pairs.map(([, key]) => key);
  }

  toSnakeCase<Value>(record: Readonly<Record<Name, Value>>): Record<SnakeCase<Name>, Value> {
    const out = {} as Record<SnakeCase<Name>, Value>;
    for (const [name, key] of this.pairs) out[key] = record[name];
    return out;
  }

  /** The named values of a snake_case record (a row, say), leaving its other keys behind. */
  fromSnakeCase<Value>(record: Readonly<Record<SnakeCase<Name>, Value>>): Record<Name, Value> {
    const out = {} as Record<Name, Value>;
    for (const [name, key] of this.pairs) out[name] = record[key];
    return out;
  }
}
