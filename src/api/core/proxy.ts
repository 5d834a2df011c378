/**
 * Which proxy, if any, the service's requests go through: read from HTTPS_PROXY, HTTP_PROXY and
 * NO_PROXY (either case) once, when the client is made. Deciding it here, rather than inside undici's
 * EnvHttpProxyAgent, lets a malformed variable be a configuration error naming the variable (undici
 * throws a bare "Invalid URL" on the first request), and lets messages say "through the proxy" only
 * when the request really went through one.
 */
import { ConfigurationError } from '../errors.js';

export interface ProxyRoute {
  /** The proxy's URL as undici takes it, credentials included (sent to the proxy, never printed). */
  url: string;
  /** host:port of the proxy, for messages: never its credentials. */
  host: string;
  /** The variable it came from, as it is spelt in the environment (HTTPS_PROXY, https_proxy, ...). */
  variable: string;
}

/**
 * The proxy for requests to `origin` (an http: or https: origin), or undefined when they go direct:
 * no variable is set, or NO_PROXY names the host. https prefers HTTPS_PROXY and falls back to
 * HTTP_PROXY; http uses HTTP_PROXY only (as undici and curl do). The lower-case name wins over the
 * upper-case one; an empty value counts as unset.
 */
export function proxyFor(origin: string, env: NodeJS.ProcessEnv): ProxyRoute | undefined {
  const url = new URL(origin);
  const candidates = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const variable = candidates.find((name) => (env[name] ?? '').trim() !== '');
  if (variable === undefined) return undefined;
  // Checked before NO_PROXY is consulted: a broken setting is reported whatever host this run uses.
  const proxy = parseProxyUrl(variable, env[variable]!);
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (noProxyMatches(env.no_proxy ?? env.NO_PROXY ?? '', url.hostname, port)) return undefined;
  return proxy;
}

/**
 * A proxy variable's value as a URL. Without a scheme it is http://, as curl reads it
 * (`proxy.corp.example:3128`, which `new URL` would take for the scheme "proxy.corp.example:"). Anything
 * else unusable (a scheme undici has no proxy for, no host, a port that is not 1-65535, text that is no URL) is a
 * ConfigurationError naming the variable and what is wrong, never the credentials.
 */
export function parseProxyUrl(variable: string, value: string): ProxyRoute {
  const text = value.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1];
  const full = scheme === undefined ? `http://${text}` : text;
  const authority = full.slice(full.indexOf('//') + 2).split(/[/?#]/)[0]!;
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  // What the message may show: the value without its user name and password.
  const shown = JSON.stringify(authority === hostPort ? text : text.replace(authority, `…@${hostPort}`));
  const refuse = (problem: string): never => {
    throw new ConfigurationError('proxy', 'invalid', `${variable}=${shown} is not a usable proxy: ${problem} (expected http://host:port)`);
  };
  // socks5:// is undici's (experimental) own; it worked before this check existed, so it still does.
  if (scheme !== undefined && !/^(?:https?|socks5?)$/i.test(scheme)) refuse(`the scheme "${scheme}" is not supported, only http://, https:// and socks5://`);
  const portText = /^(?:\[[^\]]*\]|[^:]+):(.*)$/.exec(hostPort)?.[1];
  if (portText !== undefined && portText !== '' && !(/^\d{1,5}$/.test(portText) && Number(portText) >= 1 && Number(portText) <= 65535)) {
    refuse(`the port "${portText}" is not a number from 1 to 65535`);
  }
  let url: URL;
  try {
    url = new URL(full);
  } catch {
    return refuse(hostPort === '' ? 'it names no host' : 'it is not a URL');
  }
  if (url.hostname === '') refuse('it names no host');
  return { url: url.href, host: url.host, variable };
}

/**
 * NO_PROXY as undici reads it: entries split by commas or blanks, `*` alone for every host, an entry
 * matching the host itself and its subdomains (a leading `.` or `*.` is ignored), `host:port` only
 * that port.
 */
export function noProxyMatches(noProxy: string, hostname: string, port: number): boolean {
  const host = hostname.toLowerCase();
  const entries = noProxy.split(/[,\s]/).filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0] === '*') return true;
  return entries.some((entry) => {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    if (parsed && Number(parsed[2]) !== port) return false;
    const name = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    return host === name || host.endsWith(`.${name}`);
  });
}
