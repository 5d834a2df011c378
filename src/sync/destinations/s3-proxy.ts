/**
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY for the object store, as the AWS CLI honours them and the
 * client honours them for the API. The AWS SDK's own agents read none of them, so behind a proxy the
 * store was unreachable (`getaddrinfo ENOTFOUND`, exit 6) while the API answered through the proxy.
 *
 * Which proxy, if any, is decided per host by the API's own rule (api/core/proxy.ts: the variables in
 * either case, NO_PROXY, the same refusal of a malformed one); loopback never goes through one. A
 * request through a proxy goes in a CONNECT tunnel, http and https alike, as undici sends the API's.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { isLoopbackHost } from '../../api/core/address.js';
import { proxyFor, type ProxyRoute } from '../../api/core/proxy.js';

type Connected = (error: Error | null, stream: Duplex) => void;

/** The SDK's own agents' settings: kept-alive connections, up to 50 a host. */
const POOL = { keepAlive: true, maxSockets: 50 };

function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/** A socket to host:port through the proxy (CONNECT), or the proxy's refusal as one line naming it, never its credentials. */
function tunnel(route: ProxyRoute, host: string, port: number, timeoutMs: number): Promise<Socket> {
  const proxy = new URL(route.url);
  const secure = proxy.protocol === 'https:';
  const credentials = proxy.username === '' ? {} : { 'proxy-authorization': `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}` };
  const target = hostPort(host, port);
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: proxy.port === '' ? (secure ? 443 : 80) : Number(proxy.port),
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...credentials },
      agent: false,
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`sent nothing for ${timeoutMs / 1000} s (--timeout)`)));
    request.once('connect', (response, socket) => {
      request.setTimeout(0);
      if (response.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new Error(`the proxy ${route.host} (${route.variable}) answered ${response.statusCode} to CONNECT ${target}`));
    });
    request.once('error', (error) => reject(new Error(`the proxy ${route.host} (${route.variable}): ${error.message}`)));
    request.end();
  });
}

/**
 * Both agents' createConnection: direct through the agent's own when no proxy applies, else a tunnel
 * with `over` on it (nothing for http, TLS to the store for https).
 */
function connectVia(scheme: 'http' | 'https', agent: { env: NodeJS.ProcessEnv; timeoutMs: number }, options: ClientRequestArgs, callback: Connected | undefined, direct: () => Duplex | null | undefined, over: (socket: Socket, host: string) => Duplex): Duplex | null | undefined {
  const host = options.hostname ?? options.host ?? 'localhost';
  const port = Number(options.port ?? (scheme === 'https' ? 443 : 80));
  const route = isLoopbackHost(host) ? undefined : proxyFor(`${scheme}://${hostPort(host, port)}`, agent.env);
  if (route === undefined) return direct();
  tunnel(route, host, port, agent.timeoutMs).then((socket) => callback?.(null, over(socket, host)), (error: Error) => callback?.(error, undefined as never));
  return undefined;
}

class ProxiedHttpAgent extends HttpAgent {
  constructor(readonly env: NodeJS.ProcessEnv, readonly timeoutMs: number) {
    super(POOL);
  }

  override createConnection(options: ClientRequestArgs, callback?: Connected): Duplex | null | undefined {
    return connectVia('http', this, options, callback, () => super.createConnection(options, callback), (socket) => socket);
  }
}

class ProxiedHttpsAgent extends HttpsAgent {
  constructor(readonly env: NodeJS.ProcessEnv, readonly timeoutMs: number) {
    super(POOL);
  }

  override createConnection(options: RequestOptions, callback?: Connected): Duplex | null | undefined {
    // TLS to the store inside the tunnel, its certificate checked; a failed handshake reaches the
    // request as a direct connection's does.
    return connectVia('https', this, options, callback, () => super.createConnection(options, callback), (socket, host) =>
      tlsConnect({ ...(options as object), socket, servername: options.servername ?? (isIP(host) === 0 ? host : undefined) }));
  }
}

/**
 * Agents for the SDK that honour the proxy variables, or undefined when none is set (the SDK's own
 * agents then, as before). A malformed variable is refused here, before anything is sent (exit 2).
 */
export function proxiedAgents(env: NodeJS.ProcessEnv, timeoutMs: number): { httpAgent: HttpAgent; httpsAgent: HttpsAgent } | undefined {
  const set = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'].some((name) => (env[name] ?? '').trim() !== '');
  if (!set) return undefined;
  // Parsed now for its refusal: proxyFor reads the variable before it looks at NO_PROXY.
  proxyFor('https://store.invalid', env);
  proxyFor('http://store.invalid', env);
  return { httpAgent: new ProxiedHttpAgent(env, timeoutMs), httpsAgent: new ProxiedHttpsAgent(env, timeoutMs) };
}
