import { cacheDirectory, clearCache } from '../run/cache.js';
import { verb, type NounVerbs } from '../run/spec.js';

const path = verb({
  name: 'path',
  summary: 'Print the cache directory',
  examples: ['cache path'],
  prints: 'text',
  async run(ctx) {
    return { text: `${cacheDirectory(ctx.env)}\n` };
  },
});

const clear = verb({
  name: 'clear',
  summary: 'Delete every cached list',
  examples: ['cache clear'],
  prints: 'nothing',
  async run(ctx) {
    ctx.report.note(`Cleared ${await clearCache(ctx.env)}.`);
  },
});

const cache: NounVerbs = { verbs: [path, clear] };

export default cache;
