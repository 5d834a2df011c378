/** Recent articles and article counts. */
import type { APIPromise } from '../api-promise.js';
import type { NumberMode, Parsed } from '../json.js';
import {
  BOUNDS,
  type Article,
  type ArticleBase,
  type ArticlesRecentParams,
  type ArticleStats,
  type ArticleStatsAllTime,
  type ArticleWithSourceContext,
} from '../types.js';
import { APIResource, checkBound, type CallOptions } from './base.js';

export class ArticlesResource<M extends NumberMode> extends APIResource<M> {
  /** With source context (the default), every context field is there; with includeSourceContext false, none is. */
  recent(params?: ArticlesRecentParams & { includeSourceContext?: true | undefined }, options?: CallOptions): APIPromise<Parsed<M, ArticleWithSourceContext[]>>;
  recent(params: ArticlesRecentParams & { includeSourceContext: false }, options?: CallOptions): APIPromise<Parsed<M, ArticleBase[]>>;
  recent(params?: ArticlesRecentParams, options?: CallOptions): APIPromise<Parsed<M, Article[]>>;
  recent(params: ArticlesRecentParams = {}, options?: CallOptions): APIPromise<Parsed<M, Article[]>> {
    return this.request<Article[]>(() => ({
      endpoint: '/api/data/articles/recent',
      query: {
        limit: checkBound('limit', params.limit, BOUNDS.articlesLimit),
        includeSourceContext: params.includeSourceContext,
      },
    }), options);
  }

  /** Counts over the last `days` days. */
  stats(params: { days?: number } = {}, options?: CallOptions): APIPromise<Parsed<M, ArticleStats>> {
    return this.request<ArticleStats>(() => ({
      endpoint: '/api/data/articles/stats',
      query: { days: checkBound('days', params.days, BOUNDS.statsDays) },
    }), options);
  }

  /** Counts since the service began: articles, sources and countries (`/articles/stats/all-time`). */
  statsAllTime(options?: CallOptions): APIPromise<Parsed<M, ArticleStatsAllTime>> {
    return this.request<ArticleStatsAllTime>(() => ({ endpoint: '/api/data/articles/stats/all-time' }), options);
  }
}
