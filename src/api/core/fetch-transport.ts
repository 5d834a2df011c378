/**
 * Attempts on a `fetch` function: the transport of runtimes without undici (Deno, Bun, Cloudflare
 * Workers, browsers), and of a client given `fetch` in its options. The same deadline, size limit and
 * outcome as the undici transport (transport.ts); what fetch cannot tell apart is said as such: it
 * hands over a response only with its headers, so connecting and waiting for the headers are one
 * phase. Redirects are not followed (`redirect: 'manual'`), as the undici transport does not.
 */
import { AbortError } from '../errors.js';
import { decodeBody } from './response.js';
import {
  armAttempt,
  attemptFailure,
  AttemptTimeout,
  tooLargeFailure,
  type AttemptOutcome,
  type AttemptPhase,
  type AttemptPlan,
  type Transport,
  type TransportSettings,
} from './transport-contract.js';

/** The fetch the transport calls: the global one, or one the caller passes (a mock, an instrumented one). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

export class FetchTransport implements Transport {
  readonly #settings: TransportSettings;
  readonly #fetch: FetchFunction;

  constructor(settings: TransportSettings, fetchFunction: FetchFunction) {
    this.#settings = settings;
    this.#fetch = fetchFunction;
  }

  /** fetch keeps no connections of the client's own: nothing to close. */
  async close(): Promise<void> {}

  async destroy(): Promise<void> {}

  async attempt(plan: AttemptPlan): Promise<AttemptOutcome> {
    const settings = this.#settings;
    const controller = new AbortController();
    let phase: AttemptPhase = 'response';
    let struck: Error | undefined;
    const disarm = armAttempt(plan, () => phase, (reason) => {
      if (struck) return;
      struck = reason;
      controller.abort(reason);
    });
    /** What the attempt ends with once the deadline or the caller stopped it. */
    const stopped = (): AttemptOutcome => {
      if (struck instanceof AttemptTimeout) return attemptFailure(settings, plan, struck, phase);
      throw struck instanceof AbortError ? struck : new AbortError({ method: plan.method, url: plan.url, reason: struck });
    };
    try {
      if (struck) return stopped();
      let response: Response;
      try {
        response = await this.#fetch(`${settings.origin}${plan.url}`, {
          method: plan.method, headers: plan.headers, redirect: 'manual', signal: controller.signal,
        });
      } catch (error) {
        if (struck) return stopped();
        return attemptFailure(settings, plan, error instanceof Error ? error : new Error(String(error)), phase);
      }
      phase = 'body';
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      if (Number(headers['content-length']) > settings.maxResponseBytes) {
        controller.abort();
        return tooLargeFailure(settings, plan, response.status);
      }
      const chunks: Uint8Array[] = [];
      let received = 0;
      try {
        const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
        for (;;) {
          if (!reader) break;
          const { done, value } = (await reader.read()) as { done: boolean; value: Uint8Array };
          if (done) break;
          received += value.byteLength;
          if (received > settings.maxResponseBytes) {
            controller.abort();
            return tooLargeFailure(settings, plan, response.status);
          }
          chunks.push(value);
        }
      } catch (error) {
        if (struck) return stopped();
        return attemptFailure(settings, plan, error instanceof Error ? error : new Error(String(error)), phase);
      }
      if (struck) return stopped();
      const body = new Uint8Array(received);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.byteLength;
      }
      // An opaque redirect (a browser's fetch with redirect 'manual') has status 0: a redirect all the same.
      const status = response.type === 'opaqueredirect' ? 302 : response.status;
      return { kind: 'response', status, ...decodeBody(body), bytes: received, headers };
    } finally {
      disarm();
    }
  }
}
