/** Published posts. */
import type { NumberMode, Parsed } from '../json.js';
import { BOUNDS, type Post } from '../types.js';
import { APIResource, checkBound, checkText, path, quote, type CallOptions } from './base.js';

export class PostsResource<M extends NumberMode> extends APIResource<M> {
  async recent(params: { count?: number } = {}, options?: CallOptions): Promise<Parsed<M, Post[]>> {
    return this.request<Post[]>(path`/api/data/posts/recent`, {
      query: { count: checkBound('count', params.count, BOUNDS.postsCount) },
    }, options);
  }

  async get(slug: string, options?: CallOptions): Promise<Parsed<M, Post>> {
    checkText('slug', slug);
    return this.request<Post>(path`/api/data/posts/${slug}`, { notFound: `post ${quote(slug)}` }, options);
  }
}
