import type { Static, TSchema } from '@sinclair/typebox';
import { camelCase, type CamelCased } from '../kernel/names';

/** A record's view: its contract schema's fields in camelCase, which GraphQL classes implement. */
export type ViewOf<Schema extends TSchema> = CamelCased<Static<Schema>>;

/**
 * A record's two cases: `toContract` writes its camelCase view in the contract's snake_case (REST
 * answers, stored listings, webhook payloads), `toView` reads an answer of the contract back into
 * the view (gateway mode reads its upstream so). Each is compiled once from the record's TypeBox
 * schema into straight-line code: the keys come out in the schema's order, so the JSON text is the
 * same whichever side made the record, and an optional field is written only when the view has it.
 */
export interface Cases<Schema extends TSchema> {
  toContract(view: ViewOf<Schema>): Static<Schema>;
  toView(contract: Static<Schema>): ViewOf<Schema>;
}

/** Schemas another schema refers to by `$ref` (by their `$id`). */
export type SchemaRefs = readonly TSchema[];

interface Property {
  camel: string;
  snake: string;
  optional: boolean;
  /** Index of the nested object's converter, for a nested object or an array of them. */
  nested?: { index: number; array: boolean; nullable: boolean };
}

const NAME = /^[a-z_][a-zA-Z0-9_]*$/;

class Compiler {
  /** The properties of each nested object met, in the order they were met (0 is the record). */
  readonly objects: Property[][] = [];

  private readonly seen = new Map<TSchema, number>();

  constructor(private readonly refs: SchemaRefs) {}

  /** The object schema a property's schema names: itself, a `$ref`, or `allOf: [{ $ref }]`. */
  private resolve(schema: TSchema): TSchema {
    const ref: unknown = schema.$ref ?? (Array.isArray(schema.allOf) ? schema.allOf[0]?.$ref : undefined);
    if (typeof ref !== 'string') return schema;
    const found = this.refs.find((candidate) => `${candidate.$id}#` === ref || candidate.$id === ref);
    if (!found) throw new Error(`${ref}: pass the schema it refers to`);
    return found;
  }

  object(schema: TSchema): number {
    const known = this.seen.get(schema);
    if (known !== undefined) return known;
    const index = this.objects.length;
    this.seen.set(schema, index);
    this.objects.push([]);
    const required = new Set<string>(schema.required ?? []);
    const properties = Object.entries(schema.properties as Record<string, TSchema>).map(([snake, raw]) => {
      if (!NAME.test(snake)) throw new Error(`not a field name: ${snake}`);
      const property: Property = { camel: camelCase(snake), snake, optional: !required.has(snake) };
      const nullable = raw.nullable === true;
      const array = raw.type === 'array';
      const inner = this.resolve(array ? (raw.items as TSchema) : raw);
      if (inner.properties && typeof inner.properties === 'object') {
        property.nested = { index: this.object(inner), array, nullable };
      }
      return property;
    });
    this.objects[index] = properties;
    return index;
  }
}

function compile(objects: Property[][], toContract: boolean): (record: unknown) => unknown {
  const functions = objects.map((properties, index) => {
    const lines = properties.map((property) => {
      const [from, to] = toContract ? [property.camel, property.snake] : [property.snake, property.camel];
      const value = `v.${from}`;
      let converted = value;
      if (property.nested) {
        const { index: nested, array, nullable } = property.nested;
        converted = array ? `${value}.map(f${nested})` : `f${nested}(${value})`;
        if (nullable || property.optional) converted = `${value} == null ? ${value} : ${converted}`;
      }
      const assign = `o.${to} = ${converted};`;
      return property.optional ? `if (${value} !== undefined) ${assign}` : assign;
    });
    return `function f${index}(v) { const o = {}; ${lines.join(' ')} return o; }`;
  });
  // Generated from the schema's own checked field names, never from data.
  return new Function(`${functions.join('\n')}\nreturn f0;`)() as (record: unknown) => unknown;
}

/** The cases of a record whose contract schema is `schema` (see Cases). */
export function cases<Schema extends TSchema>(schema: Schema, refs: SchemaRefs = []): Cases<Schema> {
  const compiler = new Compiler(refs);
  compiler.object(schema);
  return {
    toContract: compile(compiler.objects, true) as Cases<Schema>['toContract'],
    toView: compile(compiler.objects, false) as Cases<Schema>['toView'],
  };
}
