/** News sources and the links on their homepages. */
import type { APIPromise } from '../api-promise.js';
import type { NumberMode, Parsed } from '../json.js';
import type { IdentifierInput, Source, SourceLinks } from '../types.js';
import { APIResource, checkId, checkOptionalId, type CallOptions } from './base.js';

export class SourcesResource<M extends NumberMode> extends APIResource<M> {
  /** Every news source, or those of one country (`countryId`). Stable: cache it. */
  list(params: { countryId?: IdentifierInput } = {}, options?: CallOptions): APIPromise<Parsed<M, Source[]>> {
    return this.request<Source[]>(() => ({
      endpoint: '/api/data/sources',
      query: { countryId: checkOptionalId('countryId', params.countryId) },
    }), options);
  }

  /** One source by its id; `NotFoundError` when there is none. */
  get(sourceId: IdentifierInput, options?: CallOptions): APIPromise<Parsed<M, Source>> {
    return this.request<Source>(() => ({ endpoint: '/api/data/sources/{sourceId}', params: { sourceId: checkId('sourceId', sourceId) }, notFound: `source ${sourceId}` }), options);
  }

  /** Links on the source's homepage, split by its link filter (applyFilter defaults to true on the server). */
  links(sourceId: IdentifierInput, params: { applyFilter?: boolean } = {}, options?: CallOptions): APIPromise<Parsed<M, SourceLinks>> {
    return this.request<SourceLinks>(() => ({
      endpoint: '/api/data/sources/{sourceId}/links', params: { sourceId: checkId('sourceId', sourceId) },
      query: { applyFilter: params.applyFilter },
      notFound: `source ${sourceId}`,
    }), options);
  }
}
