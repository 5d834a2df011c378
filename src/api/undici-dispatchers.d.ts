// undici's own files carry no declarations; these are the classes and methods its index re-exports,
// typed there.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}
declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici';
  /** The methods undici's index puts on Dispatcher.prototype. */
  const api: Pick<Dispatcher, 'request' | 'stream' | 'pipeline' | 'connect' | 'upgrade'>;
  export default api;
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import { ProxyAgent } from 'undici';
  export default ProxyAgent;
}
