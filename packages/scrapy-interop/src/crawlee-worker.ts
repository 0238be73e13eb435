#!/usr/bin/env node
import { runWorker } from './crawlee/run-worker.js';
import { parseWorkerOptions } from './crawlee/worker-options.js';

// One Crawlee worker process of the interop harness (forked by the tests). Exit status: 0 done, 1 crashed, 2 usage.
runWorker(parseWorkerOptions(process.argv)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
