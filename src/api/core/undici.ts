/**
 * The parts of undici the Node transport uses. The two dispatchers straight from their files: undici's
 * index also loads fetch, WebSocket, the cache and cookies, and its cookies module touches
 * globalThis.Headers, which makes Node load its own bundled copy of undici as well. Together about
 * 50 ms of every run that makes a request. What the index does that they need is done here: give
 * dispatchers request() and connect() (the proxy agent uses it), as undici's index does itself. Only
 * those two of its five: stream(), pipeline() and upgrade(), which nothing here calls, are 14 KB
 * that every run making a request would compile and run (docs/performance.md).
 *
 * The library's build bundles this module alone into dist/esm/api/core/undici.js (scripts/build.mjs),
 * its requires of Node's built-ins made process.getBuiltinModule calls, so every bundler and both
 * module systems load it as they load any ES module, and undici is not installed with the package.
 */
import Agent from 'undici/lib/dispatcher/agent.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import UndiciDispatcher from 'undici/lib/dispatcher/dispatcher.js';
import request from 'undici/lib/api/api-request.js';
import connect from 'undici/lib/api/api-connect.js';

Object.assign(UndiciDispatcher.prototype, { request, connect });

export { Agent, ProxyAgent, Pool };
