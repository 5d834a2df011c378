/**
 * JSON serialisation that writes bigint values as bare integers with every digit.
 *
 * JSON.stringify throws on bigint, and turning articleHash into a number first would round it
 * (it exceeds 2^53). The model hands out plain data (objects, arrays, strings, numbers, bigints,
 * booleans, null), so a small recursive writer is enough and costs about what JSON.stringify does.
 */
export function stringifyJson(value: unknown): string {
  const text = write(value);
  // Same rule as JSON.stringify: a top-level value with no JSON form has no text.
  return text ?? 'null';
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
