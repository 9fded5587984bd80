import { MALLOC_TUNABLES, RELAUNCHED, SEMI_SPACE_FLAG, relaunchFor } from '../../src/ops/launch';

describe('relaunchFor: the settings a service process starts with', () => {
  it('starts serve and start again with the semi-space and glibc malloc settings', () => {
    for (const command of ['serve', 'start']) {
      const relaunch = relaunchFor([command], ['--enable-source-maps'], { PATH: '/bin' }, 'linux');
      expect(relaunch?.execArgv).toEqual([SEMI_SPACE_FLAG, '--enable-source-maps']);
      expect(relaunch?.env).toEqual({ PATH: '/bin', [RELAUNCHED]: '1', GLIBC_TUNABLES: MALLOC_TUNABLES });
    }
  });

  it('leaves one-off commands, other systems and a started-again process as they are', () => {
    expect(relaunchFor(['seed', '--scale', '1'], [], {}, 'linux')).toBeNull();
    expect(relaunchFor(['serve'], [], {}, 'darwin')).toBeNull();
    expect(relaunchFor(['serve'], [], {}, 'win32')).toBeNull();
    expect(relaunchFor(['serve'], [], { [RELAUNCHED]: '1' }, 'linux')).toBeNull();
    expect(relaunchFor([], [], {}, 'linux')).toBeNull();
  });

  it('keeps what the operator set and adds only what is missing', () => {
    const own = relaunchFor(['serve'], [], { NODE_OPTIONS: '--max-semi-space-size=64' }, 'linux');
    expect(own?.execArgv).toEqual([]);
    expect(own?.env.GLIBC_TUNABLES).toBe(MALLOC_TUNABLES);

    const flag = relaunchFor(['serve'], ['--max-semi-space-size=8'], {}, 'linux');
    expect(flag?.execArgv).toEqual(['--max-semi-space-size=8']);

    const other = relaunchFor(['serve'], [], { GLIBC_TUNABLES: 'glibc.pthread.rseq=0' }, 'linux');
    expect(other?.env.GLIBC_TUNABLES).toBe(`glibc.pthread.rseq=0:${MALLOC_TUNABLES}`);

    const malloc = relaunchFor(['serve'], [], { GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=1' }, 'linux');
    expect(malloc?.execArgv).toEqual([SEMI_SPACE_FLAG]);
    expect(malloc?.env.GLIBC_TUNABLES).toBe('glibc.malloc.trim_threshold=1');

    const both = {
      NODE_OPTIONS: '--max-semi-space-size=16',
      GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=1',
    };
    expect(relaunchFor(['serve'], [], both, 'linux')).toBeNull();
  });

  it('is turned off by FACILITY_OPS_PROCESS_TUNING=off and refuses any other word than on or off', () => {
    expect(relaunchFor(['serve'], [], { FACILITY_OPS_PROCESS_TUNING: 'off' }, 'linux')).toBeNull();
    expect(relaunchFor(['serve'], [], { FACILITY_OPS_PROCESS_TUNING: 'on' }, 'linux')).not.toBeNull();
    expect(() => relaunchFor(['serve'], [], { FACILITY_OPS_PROCESS_TUNING: 'no' }, 'linux')).toThrow(
      'FACILITY_OPS_PROCESS_TUNING must be on or off, not "no"',
    );
  });
});
