import v8 from 'node:v8';

/**
 * V8's memory reducer shrinks the heap of a process that has gone quiet: some seconds after the
 * heap grew, once little is being allocated, it runs full garbage collections that shrink it.
 * Afterwards ("done") V8 grows the heap only slowly until its committed memory is 10 MB above
 * what it was then. A service answering pages of 173 KB keeps about 70 MB committed under load,
 * so after one quiet spell it stayed in that state as long as the load lasted, in every run
 * measured: a full collection every 60-70 ms, and half the cold pages per second (SQLite
 * 1,360-1,460 req/s against 2,570-2,660; PostgreSQL 580-660 against 1,260-1,430). The reducer's
 * first collection waits this long instead, about 24.8 days: in effect, never.
 */
export const MEMORY_REDUCER_DELAY_FLAG = '--gc-memory-reducer-start-delay-ms=2147483647';

/**
 * Keeps the heap sized for load through quiet spells (see MEMORY_REDUCER_DELAY_FLAG). V8 reads the
 * delay each time it schedules the reducer, so setting it at run time holds, provided it is set
 * before the reducer is first scheduled: first thing in the process, before the heap has grown by
 * 10 MB (ops/keep-heap, the first import of main.ts, ahead of the service's modules).
 */
export function keepHeapThroughQuiet(): void {
  v8.setFlagsFromString(MEMORY_REDUCER_DELAY_FLAG);
}
