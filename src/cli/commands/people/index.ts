/** The people noun: one file per verb, in the order `people --help` lists them. */
import type { NounVerbs } from '../../run/spec.js';
import countries from './countries.js';
import get from './get.js';
import links from './links.js';
import list from './list.js';
import movers from './movers.js';
import search from './search.js';
import top from './top.js';
import trend from './trend.js';

const people: NounVerbs = { verbs: [top, movers, list, get, search, links, countries, trend] };

export default people;
