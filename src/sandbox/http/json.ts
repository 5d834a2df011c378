/**
 * JSON serialisation that writes bigint values as bare integers with every digit.
 *
 * JSON.stringify throws on bigint, and turning articleHash into a number first would round it
 * (it exceeds 2^53). V8's JSON.stringify is several times faster than any hand-written writer, so
 * it does the work: values without bigints go through it as they are; values with bigints go
 * through it with a replacer that turns each bigint into a marked string, and the marks' quotes are
 * then removed. A string in the data that itself starts with the mark (never in the sandbox's data,
 * but possible in principle) sends the value to the exact, slower writer below instead.
 */
const BIGINT_MARK = '\u0000bigint:';
const MARKED_BIGINT = /"\\u0000bigint:(-?\d+)"/g;

export function stringifyJson(value: unknown): string {
  if (!containsBigInt(value)) return JSON.stringify(value) ?? 'null';
  let markCollision = false;
  const marked = JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member === 'bigint') return BIGINT_MARK + member.toString();
    if (typeof member === 'string' && member.startsWith(BIGINT_MARK)) markCollision = true;
    return member;
  });
  if (markCollision) return writeExact(value);
  return marked.replace(MARKED_BIGINT, '$1');
}

function containsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (containsBigInt(item)) return true;
    return false;
  }
  for (const key in value) if (containsBigInt((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** The exact writer: same output as JSON.stringify, with bigints as bare integers. */
export function writeExact(value: unknown): string {
  // Same rule as JSON.stringify: a top-level value with no JSON form has no text.
  return write(value) ?? 'null';
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value);
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        return write((value as { toJSON(): unknown }).toJSON());
      }
      return writeObject(value as Record<string, unknown>);
    default:
      // undefined, functions and symbols have no JSON form: JSON.stringify drops them too.
      return undefined;
  }
}

function writeArray(items: readonly unknown[]): string {
  let text = '[';
  for (let index = 0; index < items.length; index++) {
    if (index > 0) text += ',';
    text += write(items[index]) ?? 'null';
  }
  return text + ']';
}

function writeObject(record: Record<string, unknown>): string {
  let text = '{';
  let first = true;
  for (const key of Object.keys(record)) {
    const member = write(record[key]);
    if (member === undefined) continue;
    text += (first ? '' : ',') + JSON.stringify(key) + ':' + member;
    first = false;
  }
  return text + '}';
}
