/**
 * `newsstats help <topic>`: the rules that cut across commands. Every fact that lives in code is
 * imported from there (the week grammar, exit codes, environment variables, config keys, paths), so
 * the help cannot drift from what the CLI does.
 */
import { ENVIRONMENT } from '../../config/resolve.js';
import { precedence, PROFILE_KEYS, SETTINGS, type SettingSpec } from '../../config/settings.js';
import { configFilePath, DEFAULT_PROFILE } from '../../config/store.js';
import { OUTPUT_FORMATS } from '../../output/formats.js';
import { MAX_LAST_WEEKS, WEEK_SPEC_GRAMMAR, weeksInYear } from '../../shared/weeks.js';
import { cacheDirectory } from '../run/cache.js';
import { EXIT_CODE_MEANINGS } from '../run/exit-codes.js';

export interface HelpTopic {
  summary: string;
  /** The topic's text, ending in a newline. `env` decides the config and cache paths shown. */
  text(env?: NodeJS.ProcessEnv): string;
}

/** Left column padded to the widest entry, so the descriptions line up. */
function twoColumns(rows: ReadonlyArray<readonly [string, string]>, indent = '  '): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`).join('\n');
}

/** Years with 53 ISO weeks around now, computed rather than remembered. */
function longYears(from: number, to: number): number[] {
  const years: number[] = [];
  for (let year = from; year <= to; year += 1) if (weeksInYear(year) === 53) years.push(year);
  return years;
}

function weeksText(): string {
  const shortYear = 2025;
  const longYear = longYears(shortYear, shortYear + 10)[0];
  return `Week windows

Weeks are ISO-8601 weeks written YYYYWW: weeks start on Monday, and week 1 is the week that holds
January 4th. Most years have 52 weeks; some have 53 (${longYears(2015, 2037).join(', ')}), so
${longYear}53 is a week but ${shortYear}53 is refused (${shortYear} has ${weeksInYear(shortYear)}).

--weeks SPEC takes ${WEEK_SPEC_GRAMMAR}:
${twoColumns([
  ['current', 'the service\'s current week'],
  ['last4', 'the service\'s own last-4 window: last4StartWeek..currentWeek'],
  ['lastN', `N weeks ending at the current week, N from 1 to ${MAX_LAST_WEEKS} (last12: 12 weeks)`],
  ['completeN', `the N complete weeks before the current one (complete4: the 4 weeks ending last Sunday), N from 1 to ${MAX_LAST_WEEKS}`],
  ['YYYYWW', 'one week, e.g. 202647'],
  ['YYYYWW..YYYYWW', 'first to last week, both included, e.g. 202550..202603 (may cross a year)'],
])}

--start YYYYWW --end YYYYWW is the same window as --weeks START..END; the two go together and
cannot be combined with --weeks.

current, last4, lastN and completeN are resolved against the current week the service reports (see
\`newsstats weeks\`), never the local clock, so every client asks for the service's weeks. With no
week flag, people top pins last4 and people trend last12; people countries and countries focus
send no weeks and the service applies its default window (the answer says which); --per-week
panels need a window. The current week is partial until Sunday ends: captions mark it, and a file
or pipe that gets it is told on stderr. Exports, and people top with --output, default to complete4:
what is written is whole weeks unless a window that holds the current week is asked for.

Examples:
  $ newsstats people top --weeks last4
  $ newsstats export country-stats --top 200 --weeks complete4 --output cs.csv
  $ newsstats people trend chiamaka-okafor-6303 --weeks last12
  $ newsstats people top --weeks 202552..202603
  $ newsstats people countries chiamaka-okafor-6303 --start 202601 --end 202613
`;
}

function formatsText(): string {
  return `Output formats

-f, --format takes ${OUTPUT_FORMATS.join(', ')}:
${twoColumns([
  ['table', 'on a terminal: borderless columns, the least important hidden when they don\'t fit; not on a terminal: tsv lines'],
  ['json', 'the service\'s value, pretty-printed; null and unknown fields kept'],
  ['ndjson', 'one compact JSON value a line; an array gives one line per element'],
  ['csv', 'RFC 4180 with \\n line ends and a header row'],
  ['tsv', 'jq\'s @tsv: no quoting; tab, newline, CR and backslash written \\t \\n \\r \\\\'],
  ['chart', 'bars for ranked lists, a line over the weeks for trends; a terminal only, never a file or pipe'],
  ['xlsx', 'an Excel workbook: bold frozen header, autofilter, fitted widths; a file or pipe only, never a terminal'],
  ['parquet', 'Apache Parquet with typed columns, snappy-compressed; a file or pipe only, never a terminal'],
])}

Default: table when stdout is a terminal, else json. With --output FILE the extension decides
(.csv → csv, .tsv → tsv, .json → json, .ndjson → ndjson, .jsonl → ndjson, .xlsx → xlsx,
.parquet → parquet); any other extension is
an error unless --format says the format. An explicit --format always wins. The raw \`api\`
command prints json unless --format says otherwise.

--output FILE writes a temporary file beside FILE and renames it into place on success: FILE is
either complete or untouched. In a terminal a finished run says how many rows it wrote (not with
-q). -o - is stdout.

--fields a,b,c selects and orders the columns; an unknown field is an error listing the valid ones.
With --fields, json and ndjson print the selected fields of each row.

--no-header drops the header row of csv, tsv, table and xlsx.

--bom starts csv with a UTF-8 byte-order mark, so Excel reads accented and non-Latin names right;
off by default, as it trips up Unix tools. It is refused with other formats. For Excel, xlsx is
better still: it also keeps a 19-digit articleHash whole, where Excel rounds a csv number to 15 digits.

xlsx cells: numbers of at most 15 significant digits are numbers, longer ones and articleHash are
text with every digit; timestamps are dates; text is never a formula, so it needs no leading '.

parquet columns are typed from the contract: integers INT64 (articleHash with every digit), weeks
INT32, decimals DOUBLE, timestamps TIMESTAMP (UTC, milliseconds), text UTF8, nulls as nulls; lists
and objects are UTF8 holding compact JSON. Every row group of 10,000 rows is written as it fills.

Tables on a terminal show short headers (MENTIONS, FROM), dates as days (2002-03-20) and a caption
above a ranking. Numbers, identifiers (personHash, slug, sourceId, articleHash, week) and dates are
never cut: when the columns don't fit, the least important are hidden and one line on stderr names
them (see --fields); only names and free text are shortened with …, and a name or title that would
be narrower than an id beside it wraps onto lines under itself instead. An empty result is one line on
stderr. Piped, a table prints the API's field names and every value, tab-separated by the tsv rule,
row by row as they arrive.

Cells (csv, tsv, table):
  null and absent fields are empty
  arrays of strings are joined with ;
  other arrays and objects are compact JSON
  numbers are written exactly as the service sent them, to the last digit (a 19-digit articleHash too)
  csv and tsv text cells starting with = + - @, tab or carriage return get a leading '
  (so a spreadsheet does not run them as formulas); numbers never do, so -0.25 stays a number;
  a piped table is for shell tools and prints text as it is

Examples:
  $ newsstats people top --weeks last4 --output top.csv
  $ newsstats people list --fields personHash,fullName --format tsv --no-header
  $ newsstats export links --top 20 --weeks last4 --output links.xlsx
  $ newsstats people top --weeks last4 --format csv --bom --output top-excel.csv
  $ newsstats people top --weeks last4 -f ndjson | jq .fullName
`;
}

function exitCodesText(): string {
  return `Exit codes

${twoColumns(EXIT_CODE_MEANINGS.map(([code, meaning]) => [String(code), meaning] as const))}

Errors print one line on stderr (with a hint line where one helps); --verbose adds the stack
of an unexpected failure.
`;
}

/** Where each profile setting may also come from, first first, from the settings table: one a line. */
const SETTING_SOURCES = (Object.values(SETTINGS) as Array<SettingSpec<unknown>>)
  .filter((spec) => spec.key !== undefined && (spec.flag !== undefined || spec.env !== undefined))
  .map((spec) => `  ${precedence(spec)}`)
  .join('\n');

function environmentText(env: NodeJS.ProcessEnv = process.env): string {
  return `Environment and configuration

Each setting is taken from the first of: a flag, an environment variable, the profile:
${SETTING_SOURCES}
The profile is ${precedence(SETTINGS.profile)}, else "${DEFAULT_PROFILE}". Every profile value is
checked on every run, as \`config set\` checks it, and so is every variable above.

Environment variables:
${twoColumns(Object.entries(ENVIRONMENT))}

Profile keys (newsstats config set KEY VALUE; the key is set with newsstats auth login):
${twoColumns(Object.entries(PROFILE_KEYS))}

Files:
  config  ${configFilePath(env)}   (mode 0600; newsstats config path)
  cache   ${cacheDirectory(env)}/   (countries and sources lists; newsstats cache clear)
`;
}

export const HELP_TOPICS: Readonly<Record<string, HelpTopic>> = {
  weeks: { summary: 'the --weeks grammar, --start/--end and ISO weeks', text: weeksText },
  formats: { summary: 'output formats, --output, --fields and how cells are written', text: formatsText },
  'exit-codes': { summary: 'what each exit status means', text: exitCodesText },
  environment: { summary: 'environment variables, profile keys, resolution order and file locations', text: environmentText },
};

export const HELP_TOPIC_NAMES: readonly string[] = Object.keys(HELP_TOPICS);
