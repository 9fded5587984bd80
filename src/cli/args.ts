import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The command line itself is wrong: the usage is printed and the exit status is 2. */
export class UsageError extends Error {}

/** The command could not do its work for a reason the user can act on; exit status 1. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** node's parseArgs with its errors turned into usage errors. */
export function parseCommandArgs(argv: string[], options: Options, maxPositionals: number): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // By shape: parseArgs's errors come from Node's internals, which may be another realm's Error.
    const message = (error as { message?: unknown }).message;
    const text = typeof message === 'string' ? message : String(error);
    // Node's advice about `--` follows the first sentence; the usage printed below says enough.
    throw new UsageError(text.split('. ')[0]);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument "${parsed.positionals[maxPositionals]}"`);
  }
  return {
    values: parsed.values as Record<string, string | boolean | undefined>,
    positionals: parsed.positionals,
  };
}

/** A whole number from `min` to `max`, or a usage error naming the option. */
export function wholeNumberOption(
  raw: string | boolean | undefined,
  name: string,
  min: number,
  max: number,
): number | undefined {
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, got "${String(raw)}"`);
  }
  return value;
}
