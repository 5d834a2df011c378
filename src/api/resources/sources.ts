/** News sources and the links on their homepages. */
import type { NumberMode, Parsed } from '../json.js';
import type { Source, SourceLinks } from '../types.js';
import { APIResource, checkId, checkInteger, path, type CallOptions } from './base.js';

export class SourcesResource<M extends NumberMode> extends APIResource<M> {
  async list(params: { countryId?: number } = {}, options?: CallOptions): Promise<Parsed<M, Source[]>> {
    return this.request<Source[]>(path`/api/data/sources`, { query: { countryId: checkInteger('countryId', params.countryId) } }, options);
  }

  async get(sourceId: number, options?: CallOptions): Promise<Parsed<M, Source>> {
    checkId('sourceId', sourceId);
    return this.request<Source>(path`/api/data/sources/${sourceId}`, { notFound: `source ${sourceId}` }, options);
  }

  /** Links on the source's homepage, split by its link filter (applyFilter defaults to true on the server). */
  async links(sourceId: number, params: { applyFilter?: boolean } = {}, options?: CallOptions): Promise<Parsed<M, SourceLinks>> {
    checkId('sourceId', sourceId);
    return this.request<SourceLinks>(path`/api/data/sources/${sourceId}/links`, {
      query: { applyFilter: params.applyFilter },
      notFound: `source ${sourceId}`,
    }, options);
  }
}
