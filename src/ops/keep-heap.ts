import { keepHeapThroughQuiet } from './heap';

// Imported first by the program's entry (main.ts), before the modules that grow the heap load.
keepHeapThroughQuiet();
