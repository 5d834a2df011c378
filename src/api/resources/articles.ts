/** Recent articles and article counts. */
import type { NumberMode, Parsed } from '../json.js';
import { BOUNDS, type Article, type ArticlesRecentParams, type ArticleStats, type ArticleStatsAllTime } from '../types.js';
import { APIResource, checkBound, path, type CallOptions } from './base.js';

export class ArticlesResource<M extends NumberMode> extends APIResource<M> {
  async recent(params: ArticlesRecentParams = {}, options?: CallOptions): Promise<Parsed<M, Article[]>> {
    return this.request<Article[]>(path`/api/data/articles/recent`, {
      query: {
        limit: checkBound('limit', params.limit, BOUNDS.articlesLimit),
        includeSourceContext: params.includeSourceContext,
      },
    }, options);
  }

  /** Counts over the last `days` days. */
  async stats(params: { days?: number } = {}, options?: CallOptions): Promise<Parsed<M, ArticleStats>> {
    return this.request<ArticleStats>(path`/api/data/articles/stats`, {
      query: { days: checkBound('days', params.days, BOUNDS.statsDays) },
    }, options);
  }

  async statsAllTime(options?: CallOptions): Promise<Parsed<M, ArticleStatsAllTime>> {
    return this.request<ArticleStatsAllTime>(path`/api/data/articles/stats/all-time`, {}, options);
  }
}
