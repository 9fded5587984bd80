import { readConfig, SETTINGS } from '../config';
import { effectiveSettings } from '../settings';
import { parseCommandArgs } from './args';
import type { CliIo } from './io';

/**
 * `config`: every setting as `serve` would take it, one a line: its name, its value (a secret as
 * `********`, a URL's password as `***`) and whether it was set, defaulted or is not read here.
 */
export function configCommand(io: CliIo, argv: string[]): number {
  parseCommandArgs(argv, {}, 0);
  const { values } = readConfig(io.env);
  for (const line of effectiveSettings(SETTINGS, io.env, values)) io.out(line);
  return 0;
}
