/** Every tool, in the order tools/list gives them: the ones a conversation starts with first. */
import type { AnyTool } from '../tool.js';
import { articlesOverview, recentArticles, recentPosts } from './news.js';
import { personArticles, personCountries, personProfile, rankPeople, searchPeople } from './people.js';
import { countryAttention, listCountries, listSources, sourceLinks } from './places.js';
import { comparePeople, peopleMovers, personTrend } from './trends.js';
import { weekInfoTool } from './weeks.js';

export const TOOLS: readonly AnyTool[] = [
  searchPeople, weekInfoTool, rankPeople, peopleMovers, personProfile, personTrend, comparePeople, personArticles, personCountries,
  countryAttention, listCountries, listSources, sourceLinks, recentArticles, recentPosts, articlesOverview,
];
