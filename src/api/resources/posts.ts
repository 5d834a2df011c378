/** Published posts. */
import type { APIPromise } from '../api-promise.js';
import type { NumberMode, Parsed } from '../json.js';
import { BOUNDS, type Post } from '../types.js';
import { APIResource, checkBound, checkText, quote, type CallOptions } from './base.js';

export class PostsResource<M extends NumberMode> extends APIResource<M> {
  /** The newest published posts, `count` of them (1-50). */
  recent(params: { count?: number } = {}, options?: CallOptions): APIPromise<Parsed<M, Post[]>> {
    return this.request<Post[]>(() => ({
      endpoint: '/api/data/posts/recent',
      query: { count: checkBound('count', params.count, BOUNDS.postsCount) },
    }), options);
  }

  /** One post by its slug; `NotFoundError` when there is none. */
  get(slug: string, options?: CallOptions): APIPromise<Parsed<M, Post>> {
    return this.request<Post>(() => ({ endpoint: '/api/data/posts/{slug}', params: { slug: checkText('slug', slug) }, notFound: `post ${quote(slug)}` }), options);
  }
}
