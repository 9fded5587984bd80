/**
 * Turns for costly work on public input: at most `size` run side by side, up to `waiting` more wait
 * in line, and beyond that the work is not taken at all, so a flood neither saturates the event
 * loop nor piles up in memory.
 */
export class WorkSlots {
  private running = 0;
  private readonly line: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly waiting: number,
  ) {}

  /** The work's result, or 'busy' when every slot and every place in line is taken. */
  async run<T>(work: () => Promise<T>): Promise<T | 'busy'> {
    if (this.running < this.size) {
      this.running += 1;
    } else {
      if (this.line.length >= this.waiting) return 'busy';
      await new Promise<void>((resolve) => this.line.push(resolve));
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
