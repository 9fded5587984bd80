/**
 * How a long-running service process starts: two settings that only apply from a process's start,
 * so `bin/facility-ops.js` starts `serve` and `start` again with them (process.execve: the same
 * process, its pid, signals and output unchanged) before anything else loads.
 *
 * A cold page arrives from the store as one Buffer (172 KB for a whole history), memory outside
 * the JavaScript heap. V8 marks the whole heap again once that memory has grown by 64 MB, unless a
 * scavenge has freed the dead Buffers first. With V8's default young generation on a large machine
 * (32 MB a semi-space) no scavenge came first: the cold whole history ran a full collection every
 * 250-350 pages, and V8's marking threads cost 200-330 µs a request, a third of the page's CPU.
 *
 * - SEMI_SPACE_FLAG: a 16 MB semi-space scavenges about every 100 pages, which frees their Buffers
 *   (no full collection in the runs measured), and the marking threads' time falls to about 50 µs.
 * - MALLOC_TUNABLES: the Buffers that scavenge freed went back to the system (glibc trims the top
 *   of its heap once more than twice the largest block it has freed lies free there) and were
 *   faulted in again: 17-24 page faults a request, and more system time on the main thread than
 *   the collections had cost. glibc now keeps blocks up to 1 MB in its heap and trims it only past
 *   128 MB free (past 32 MB it still trimmed, 10-13 faults a request; past 64 MB no longer). The
 *   memory kept is what the process used at its peak, as it is for every block below the top.
 *
 * See docs/performance.md ("The young generation and glibc's trimming").
 */

/** The young generation's semi-space, in MB. */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=16';

/** glibc's malloc: blocks up to 1 MB from its heap, trimmed back to the system past 128 MB free. */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=1048576:glibc.malloc.trim_threshold=134217728';

/** Set in the started-again process, so it is not started again. */
export const RELAUNCHED = 'FACILITY_OPS_RELAUNCHED';

/** `FACILITY_OPS_PROCESS_TUNING=off` starts the service as it was started, with neither setting. */
export const TUNING_SETTING = 'FACILITY_OPS_PROCESS_TUNING';

/** The commands that run a service until stopped. */
const SERVICE_COMMANDS = new Set(['serve', 'start']);

export interface Relaunch {
  /** Node.js's options for the new start: the process's own, with the semi-space first if it had none. */
  execArgv: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * What a command should be started again with, or null to go on as it is: not a service command;
 * not Linux (GLIBC_TUNABLES is glibc's); started again already; turned off; or both settings
 * already given by the operator (an option of their own is kept, and only what is missing added).
 */
export function relaunchFor(
  argv: readonly string[],
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Relaunch | null {
  if (!SERVICE_COMMANDS.has(argv[0] ?? '')) return null;
  if (platform !== 'linux' || env[RELAUNCHED] !== undefined) return null;
  const tuning = env[TUNING_SETTING];
  if (tuning === 'off') return null;
  if (tuning !== undefined && tuning !== 'on') {
    throw new Error(`${TUNING_SETTING} must be on or off, not ${JSON.stringify(tuning)}`);
  }
  const options = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  const hasSemiSpace = options.some((option) => option.startsWith('--max-semi-space-size'));
  const tunables = env.GLIBC_TUNABLES ?? '';
  const hasMalloc = /glibc\.malloc\.(mmap|trim)_threshold/.test(tunables);
  if (hasSemiSpace && hasMalloc) return null;
  let glibcTunables = tunables;
  if (!hasMalloc) glibcTunables = tunables === '' ? MALLOC_TUNABLES : `${tunables}:${MALLOC_TUNABLES}`;
  return {
    execArgv: hasSemiSpace ? [...execArgv] : [SEMI_SPACE_FLAG, ...execArgv],
    env: { ...env, [RELAUNCHED]: '1', GLIBC_TUNABLES: glibcTunables },
  };
}
