#!/usr/bin/env node
// Thin on purpose: load the built entry and run it. Everything else lives in src/cli/main.ts.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv);
