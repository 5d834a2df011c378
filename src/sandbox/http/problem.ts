/**
 * Error answers. Every error body is a problem-details object {type, title, status, traceId}: the
 * contract shows that shape for 400, and using it for every status lets a client read all errors
 * one way. Titles never contain the API key.
 */
import type { ProblemDetails } from '../../api/types.js';
import { mixSeed, mulberry32, RANDOM_STREAMS, type Random } from '../random.js';

/** `type` of each status: the section of the HTTP standard that describes it. */
export const PROBLEM_TYPES: Readonly<Record<number, string>> = {
  400: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
  401: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
  404: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
  405: 'https://tools.ietf.org/html/rfc9110#section-15.5.6',
  429: 'https://tools.ietf.org/html/rfc6585#section-4',
  500: 'https://tools.ietf.org/html/rfc9110#section-15.6.1',
  503: 'https://tools.ietf.org/html/rfc9110#section-15.6.4',
};

/** Thrown by parameter parsing and handlers; the server turns it into the response. */
export class HttpProblem extends Error {
  override name = 'HttpProblem';

  constructor(
    readonly status: number,
    readonly title: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(title);
  }
}

export function badRequest(title: string): HttpProblem {
  return new HttpProblem(400, title);
}

export function notFound(title: string): HttpProblem {
  return new HttpProblem(404, title);
}

/** The body of an error answer: the contract's problem details, one shape for client and sandbox. */
export function problemBody(status: number, title: string, traceId: string): ProblemDetails {
  return { type: PROBLEM_TYPES[status] ?? PROBLEM_TYPES[500]!, title, status, traceId };
}

/**
 * Trace ids in the W3C traceparent form that ASP.NET services put in their problem details
 * (00-<32 hex trace>-<16 hex span>-00). Drawn from the seed, so two sandboxes with the same seed
 * that see the same requests in the same order hand out the same ids.
 */
export class TraceIds {
  private readonly random: Random;

  constructor(seed: number) {
    this.random = mulberry32(mixSeed(seed, RANDOM_STREAMS.traceIds));
  }

  next(): string {
    return `00-${this.hex(4)}-${this.hex(2)}-00`;
  }

  private hex(words: number): string {
    let text = '';
    for (let index = 0; index < words; index++) {
      // mulberry32 yields k / 2^32, so this is its 32-bit output exactly.
      text += (this.random() * 4_294_967_296).toString(16).padStart(8, '0');
    }
    return text;
  }
}
