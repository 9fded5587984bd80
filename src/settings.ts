import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The kit settings are declared with: each setting once, as a JSON Schema (TypeBox) with its name,
 * default, bounds, the modes that read it, a line of description and whether it is a secret. The
 * declarations, arranged in the shape of the configuration, give its type (`ConfigOf`), its parsing
 * (`parseSettings`), `facility-ops config` (`effectiveSettings`) and the docs' tables
 * (`settingsTable`).
 */

/** Where a setting is read: the system of record, gateway mode, or both. */
export type Mode = 'record' | 'gateway';

/** How a command uses the settings. */
export interface LoadOptions {
  /**
   * False for the commands that write only the local database (`clients`, `import`, `migrate`, ...):
   * they never call the upstream, so gateway mode's upstream credentials may be missing.
   */
  readonly upstreamCredentials?: boolean;
}

/** The value of a setting or a derived node, read (and its problems noted) once, on first use. */
export type Read = <T>(node: Node<T>) => T;

/** What a derived node's build is given. */
export interface Context {
  readonly read: Read;
  /** Whether the environment gives the setting a value, good or bad. */
  readonly isSet: (setting: Setting<unknown>) => boolean;
  readonly problems: string[];
  readonly options: LoadOptions;
}

/** A leaf of the configuration: one setting, or a value built from settings. */
export abstract class Node<T> {
  /** The settings this node reads, in the order they are listed. */
  abstract readonly settings: readonly Setting<unknown>[];
  abstract build(context: Context): T;

  /** The same settings, the value turned into another (a size in MiB into bytes, say). */
  map<U>(to: (value: T, read: Read) => U): Node<U> {
    return new Derived(this.settings, (context) => to(context.read(this), context.read));
  }
}

class Derived<T> extends Node<T> {
  constructor(
    readonly settings: readonly Setting<unknown>[],
    private readonly builder: (context: Context) => T,
  ) {
    super();
  }

  build(context: Context): T {
    return this.builder(context);
  }
}

interface SettingOptions<T> {
  /** One line for the docs' tables (Markdown). */
  readonly doc: string;
  /** The value when unset (or bad); a function of earlier settings when it depends on them. */
  readonly default?: T | ((read: Read) => T);
  /** How the docs show a default that is computed. */
  readonly defaultDoc?: string;
  /** Never shown: not in a problem, nor by `facility-ops config`. */
  readonly secret?: boolean;
  /** What a bad value is said to miss, when not the kind's own words. */
  readonly expected?: string;
  /** Whether an empty value is refused rather than taken as unset. */
  readonly emptyRefused?: boolean;
  /** A rule across settings, on the value taken (a bad one's default included): the problem line, or null. */
  check?(value: T, read: Read): string | null;
}

/** One environment variable. */
export class Setting<T> extends Node<T> {
  readonly settings: readonly Setting<unknown>[] = [this];
  /** Where it is read; set by `onlyIn` while the declarations are made. */
  modes: readonly Mode[] = ['record', 'gateway'];

  constructor(
    readonly name: string,
    /** The value's JSON Schema; its `description` is the docs' line. */
    readonly schema: TSchema,
    /** The value of the text given, for the schema to check. */
    private readonly coerce: (raw: string) => unknown,
    readonly options: SettingOptions<T>,
    /** Whether the value is shown as a URL (a password in it masked). */
    readonly url = false,
  ) {
    super();
  }

  build(context: Context): T {
    return context.read(this);
  }

  /** The value of `raw` (undefined: unset), or the default with a problem noted. */
  parse(raw: string | undefined, read: Read, problems: string[]): T {
    const fallback = (): T => {
      const given = this.options.default;
      return (typeof given === 'function' ? (given as (read: Read) => T)(read) : (given ?? null)) as T;
    };
    let value: T;
    if (raw === undefined || (raw === '' && !this.options.emptyRefused)) {
      value = fallback();
    } else {
      const coerced = this.coerce(raw);
      if (Value.Check(this.schema, coerced)) {
        value = coerced as T;
      } else {
        const shown = this.options.secret ? '' : `, got "${this.url ? redactUrl(raw) : raw}"`;
        problems.push(`${this.name}: expected ${this.options.expected ?? expectedOf(this.schema)}${shown}`);
        value = fallback();
      }
    }
    const problem = this.options.check?.(value, read);
    if (problem) problems.push(problem);
    return value;
  }

  /** The value as `facility-ops config` shows it. */
  shown(value: unknown): string {
    if (value === null || value === undefined) return '';
    if (this.options.secret) return '********';
    return this.url ? redactUrl(String(value)) : String(value);
  }
}

/** What a value that fails `schema` should have been, in words. */
function expectedOf(schema: TSchema): string {
  if (schema.type === 'integer') return `a whole number from ${schema.minimum} to ${schema.maximum}`;
  if (schema.type === 'boolean') return 'true or false';
  if (Array.isArray(schema.anyOf)) return orList(schema.anyOf.map((choice: TSchema) => String(choice.const)));
  return 'another value';
}

function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

type Options<T> = Omit<SettingOptions<T>, 'default'>;

/** A whole number from `minimum` to `maximum`. */
export function int(
  name: string,
  fallback: number | ((read: Read) => number),
  minimum: number,
  maximum: number,
  options: Options<number>,
): Setting<number> {
  const schema = Type.Integer({ minimum, maximum, description: options.doc });
  return new Setting(name, schema, Number, { ...options, default: fallback });
}

/** true, yes or 1; false, no or 0 (any case). */
export function bool(
  name: string,
  fallback: boolean | ((read: Read) => boolean),
  options: Options<boolean>,
): Setting<boolean> {
  const word = (raw: string) => raw.toLowerCase();
  const coerce = (raw: string) =>
    ['1', 'true', 'yes'].includes(word(raw)) ? true : ['0', 'false', 'no'].includes(word(raw)) ? false : raw;
  return new Setting(name, Type.Boolean({ description: options.doc }), coerce, {
    ...options,
    default: fallback,
  });
}

/** One of `choices`; the default may be a value of its own (`auto`). */
export function oneOf<C extends string, D extends string = C>(
  name: string,
  choices: readonly C[],
  fallback: D | ((read: Read) => D),
  options: Options<C | D>,
): Setting<C | D> {
  const schema = Type.Union(
    choices.map((choice) => Type.Literal(choice)),
    { description: options.doc },
  );
  return new Setting<C | D>(name, schema, String, { ...options, default: fallback });
}

/** Free text, or text matching `pattern`; null when unset and without a default. */
export function text<D extends string | null = null>(
  name: string,
  options: Options<string | D> & { pattern?: string; default?: D | ((read: Read) => D) },
): Setting<string | D> {
  const schema = Type.String({ description: options.doc, pattern: options.pattern });
  return new Setting(name, schema, String, options, true);
}

/** A URL of one of `schemes`; null when unset and without a default. */
export function url<D extends string | null = null>(
  name: string,
  schemes: readonly string[],
  options: Options<string | D> & { default?: D | ((read: Read) => D) },
): Setting<string | D> {
  // The text itself when it parses as a URL of one of the schemes (in any case); nothing (refused) otherwise.
  const coerce = (raw: string) => {
    try {
      return schemes.includes(new URL(raw).protocol.replace(/:$/, '')) ? raw : undefined;
    } catch {
      return undefined;
    }
  };
  const expected = options.expected ?? `a ${schemes.join(':// or ')}:// URL`;
  return new Setting(name, Type.String({ description: options.doc }), coerce, { ...options, expected }, true);
}

/** A value built from `inputs` (with any earlier node `read`), noting its own problems. */
export function derive<I extends Record<string, Setting<unknown>>, T>(
  inputs: I,
  build: (inputs: I, context: Context) => T,
): Node<T> {
  return new Derived(Object.values(inputs), (context) => build(inputs, context));
}

/** Marks the settings of `tree` as read in `mode` alone (for the docs), and answers the tree. */
export function onlyIn<T extends Tree>(mode: Mode, tree: T): T {
  for (const setting of settingsOf(tree)) setting.modes = [mode];
  return tree;
}

/** Declarations in the shape of the configuration: a node, or an object of them. */
export type Tree = Node<unknown> | { readonly [key: string]: Tree };

/** The configuration a tree of declarations reads. */
export type ConfigOf<T> = T extends Node<infer V> ? V : { readonly [K in keyof T]: ConfigOf<T[K]> };

/** Every setting of a tree, in the order problems are reported. */
export function settingsOf(tree: Tree): Setting<unknown>[] {
  if (tree instanceof Node) return [...tree.settings];
  return Object.values(tree).flatMap(settingsOf);
}

/** The configuration read from `env`, and every problem in the order of the declarations. */
export function parseSettings<T extends Tree>(
  tree: T,
  env: NodeJS.ProcessEnv,
  options: LoadOptions,
): { config: ConfigOf<T>; problems: string[]; values: ReadonlyMap<Setting<unknown>, unknown> } {
  const problems: string[] = [];
  const values = new Map<Node<unknown>, unknown>();
  const read: Read = <V>(node: Node<V>): V => {
    if (!values.has(node)) {
      values.set(
        node,
        node instanceof Setting ? node.parse(env[node.name], read, problems) : node.build(context),
      );
    }
    return values.get(node) as V;
  };
  const isSet = (setting: Setting<unknown>) => Boolean(env[setting.name]);
  const context: Context = { read, problems, options, isSet };
  const walk = (node: Tree): unknown =>
    node instanceof Node
      ? read(node)
      : Object.freeze(Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)])));
  const config = walk(tree) as ConfigOf<T>;
  const settings = new Map(
    [...values].filter((entry): entry is [Setting<unknown>, unknown] => entry[0] instanceof Setting),
  );
  return { config, problems, values: settings };
}

/** `facility-ops config`: each setting's value (secrets masked), and whether it was set or defaulted. */
export function effectiveSettings(
  tree: Tree,
  env: NodeJS.ProcessEnv,
  values: ReadonlyMap<Setting<unknown>, unknown>,
): string[] {
  const settings = settingsOf(tree);
  const width = Math.max(...settings.map((setting) => setting.name.length));
  return settings.map((setting) => {
    const raw = env[setting.name];
    const set = raw !== undefined && raw !== '';
    const value = values.has(setting) ? setting.shown(values.get(setting)) : set ? setting.shown(raw) : '';
    const source = set ? 'set' : values.has(setting) ? 'default' : 'unused';
    return `${setting.name.padEnd(width)}  ${(value || '-').padEnd(24)}  ${source}`.trimEnd();
  });
}

/** A Markdown table of `settings` (prettier aligns it where it is written). */
export function settingsTable(settings: readonly Setting<unknown>[]): string {
  const rows = settings.map((setting) => {
    const { default: given, defaultDoc, doc } = setting.options;
    const { modes } = setting;
    const fallback = defaultDoc ?? (given === undefined || given === null ? 'none' : `\`${String(given)}\``);
    const where = modes.length === 1 ? modes[0] : 'both';
    return `| \`${setting.name}\` | ${fallback} | ${takes(setting)} | ${where} | ${doc} |`;
  });
  return ['| variable | default | takes | mode | meaning |', '| --- | --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

/** What a setting takes, in the docs' words. */
function takes({ schema, options }: Setting<unknown>): string {
  if (schema.type === 'integer') return `${schema.minimum} to ${schema.maximum}`;
  if (schema.type === 'boolean') return '`true` or `false`';
  if (Array.isArray(schema.anyOf))
    return orList(schema.anyOf.map((choice: TSchema) => `\`${String(choice.const)}\``));
  if (options.expected === undefined) return 'text';
  const expected = options.expected.replace(/^an? /, '');
  return expected.includes('<') ? `\`${expected}\`` : expected;
}

/** A URL with its password replaced, safe to print. */
export function redactUrl(value: string): string {
  return value.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
