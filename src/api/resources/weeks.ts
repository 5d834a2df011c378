/** The week info: the current ISO week and the start of the last-4 window. */
import type { APIPromise } from '../api-promise.js';
import type { NumberMode, Parsed } from '../json.js';
import type { WeekInfo } from '../types.js';
import { APIResource, type CallOptions } from './base.js';

export class WeeksResource<M extends NumberMode> extends APIResource<M> {
  /** The current week and the start of the typical 4-week window ending at it. */
  current(options?: CallOptions): APIPromise<Parsed<M, WeekInfo>> {
    return this.request<WeekInfo>(() => ({ endpoint: '/api/data/weeks/current' }), options);
  }
}
