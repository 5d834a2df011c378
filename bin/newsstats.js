#!/usr/bin/env node
// Thin on purpose: load the built entry and run it against this process. Everything else lives in src/cli/main.ts.
import { main, processIo } from '../dist/cli/main.js';

process.exitCode = await main(process.argv, processIo(process));
