/** Every tool, in the order tools/list gives them: the ones a conversation starts with first. */
import type { AnyTool } from '../tool.js';
import { personArticles, personCountries, personProfile, rankPeople, searchPeople } from './people.js';
import { weekInfoTool } from './weeks.js';

export const TOOLS: readonly AnyTool[] = [
  searchPeople, weekInfoTool, rankPeople, personProfile, personArticles, personCountries,
];
