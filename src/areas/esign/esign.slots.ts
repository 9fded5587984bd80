/**
 * Turns for costly work on public input: at most `size` run side by side, up to `waiting` more wait
 * in line, each for at most `waitMs`, and beyond that the work is not taken at all, so a flood
 * neither saturates the event loop nor piles up in memory, and no one waits without end.
 */
export class WorkSlots {
  private running = 0;
  private readonly line: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly waiting: number,
    private readonly waitMs = 30_000,
  ) {}

  /**
   * The work's result, or 'busy' when every slot and every place in line is taken, or when no slot
   * freed up within `waitMs` (the work is then not done).
   */
  async run<T>(work: () => Promise<T>): Promise<T | 'busy'> {
    if (this.running < this.size) {
      this.running += 1;
    } else {
      if (this.line.length >= this.waiting) return 'busy';
      const turn = await new Promise<boolean>((resolve) => {
        const take = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          const at = this.line.indexOf(take);
          // Out of line already: a slot was handed over and comes on the next turn.
          if (at < 0) return;
          this.line.splice(at, 1);
          resolve(false);
        }, this.waitMs);
        timer.unref();
        this.line.push(take);
      });
      if (!turn) return 'busy';
    }
    try {
      return await work();
    } finally {
      // The slot passes to the next in line after a turn of the event loop (work that does no I/O
      // would otherwise run one after the other without yielding), or frees up.
      const next = this.line.shift();
      if (next) setImmediate(next);
      else this.running -= 1;
    }
  }
}
