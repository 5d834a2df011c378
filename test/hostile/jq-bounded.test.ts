/** --jq's signal and memory bounds (jq-bounds.ts), for the installed package: bin/newsstats.cjs over dist/. */
import { BIN } from '../e2e/harness.js';
import { describeJqBounds } from './jq-bounds.js';

// process.execPath: the Node version running the tests is the one under test.
describeJqBounds(() => ({ file: process.execPath, leadingArgs: [BIN] }));
