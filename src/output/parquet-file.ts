/**
 * The bytes of a Parquet file of flat columns (one leaf per field: no nesting, no repetition), the only
 * shape newsstats writes. Written here rather than through a general writer because a sync's CPU
 * profile (docs/performance.md, "sync") found the general one spending more on each value than on
 * the request that brought it: a BigInt and a 16-byte array for every DECIMAL value, a TextEncoder
 * for every string of the footer, a generic Thrift serializer. Here each column of a row group is
 * encoded straight into one growing buffer from the values parquet.ts has checked.
 *
 * What a file holds (the format: https://parquet.apache.org/docs/file-format/):
 * - row groups of version-1 data pages, one page a column, Snappy-compressed;
 * - text and JSON columns dictionary-encoded (a PLAIN dictionary page, then RLE_DICTIONARY indexes),
 *   every other column PLAIN; definition levels (OPTIONAL columns) RLE;
 * - per column chunk, statistics: the null count, and min/max where the order is the type's own
 *   (text only when both bounds are at most STATS_MAX_BYTES, so no bound is truncated; none for JSON);
 * - the footer: schema (with the logical types), row groups, TYPE_ORDER column orders, created_by.
 * Nothing in it depends on the time or the machine: the same rows give the same bytes.
 */

/** A column's type: physical type and logical annotation as schemaElement (parquet.ts) describes. */
export type ParquetKind = 'INT32' | 'DECIMAL' | 'DOUBLE' | 'TIMESTAMP' | 'UTF8' | 'BOOLEAN' | 'JSON';

export interface ParquetColumn {
  name: string;
  kind: ParquetKind;
  /** REQUIRED in the file (a key): never null. */
  required?: boolean;
}

/**
 * A column's values as parquet.ts hands them over, checked: INT32, DOUBLE and TIMESTAMP (epoch
 * milliseconds) a number, DECIMAL the digits of an integer of at most 38 of them, UTF8 and JSON a
 * string, BOOLEAN a boolean; null for null.
 */
export type EncodedValue = number | string | boolean | null;

/** Digits DECIMAL(38,0) holds: the most a 16-byte two's-complement integer is given in Parquet. */
export const DECIMAL_DIGITS = 38;
const DECIMAL_BYTES = 16;

/** The longest text bound kept in statistics; a longer one would have to be cut. */
const STATS_MAX_BYTES = 64;

// parquet.thrift's enums.
const TYPE = { BOOLEAN: 0, INT32: 1, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6, FIXED_LEN_BYTE_ARRAY: 7 } as const;
const CONVERTED = { UTF8: 0, DECIMAL: 5 } as const;
const ENCODING = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 } as const;
const PAGE = { DATA_PAGE: 0, DICTIONARY_PAGE: 2 } as const;
const SNAPPY = 1;
const REQUIRED = 0;
const OPTIONAL = 1;

const PHYSICAL: Record<ParquetKind, number> = {
  INT32: TYPE.INT32, DECIMAL: TYPE.FIXED_LEN_BYTE_ARRAY, DOUBLE: TYPE.DOUBLE, TIMESTAMP: TYPE.INT64, UTF8: TYPE.BYTE_ARRAY, BOOLEAN: TYPE.BOOLEAN, JSON: TYPE.BYTE_ARRAY,
};

/** Copies up to this many bytes are made byte by byte rather than through a view. */
const SHORT_COPY = 32;

/** A byte buffer that grows as it is written: Node's Buffer writers at the end of it. */
export class Bytes {
  buffer: Buffer;
  length = 0;

  constructor(size = 4096) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + extra));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  byte(value: number): void {
    this.ensure(1);
    this.buffer[this.length++] = value;
  }

  int32(value: number): void {
    this.ensure(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }

  /** A whole number within 2^53, as INT64 little-endian. */
  int64(value: number): void {
    this.ensure(8);
    const low = ((value % 4294967296) + 4294967296) % 4294967296;
    this.buffer.writeUInt32LE(low, this.length);
    this.length = this.buffer.writeInt32LE((value - low) / 4294967296, this.length + 4);
  }

  double(value: number): void {
    this.ensure(8);
    this.length = this.buffer.writeDoubleLE(value, this.length);
  }

  /** An unsigned whole number within 2^53 as a ULEB128 varint. */
  varint(value: number): void {
    this.ensure(8);
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buffer[this.length++] = value;
  }

  append(bytes: Uint8Array, start = 0, end = bytes.length): void {
    this.ensure(end - start);
    if (end - start <= SHORT_COPY) {
      // Snappy's literals are mostly a few bytes: a view for each (subarray) was a twentieth of the
      // Parquet writer's allocation.
      const buffer = this.buffer;
      let at = this.length;
      for (let index = start; index < end; index += 1) buffer[at++] = bytes[index]!;
      this.length = at;
      return;
    }
    this.buffer.set(bytes.subarray(start, end), this.length);
    this.length += end - start;
  }

  /**
   * Text as PLAIN BYTE_ARRAY: its length in bytes (4, little-endian), then its UTF-8; returns that
   * length. The length's bytes stored one by one: Buffer's writers cost a call and a check each.
   */
  lengthAndUtf8(text: string): number {
    this.ensure(4 + text.length * 3);
    const buffer = this.buffer;
    const at = this.length;
    const written = buffer.write(text, at + 4, 'utf8');
    buffer[at] = written & 0xff;
    buffer[at + 1] = (written >>> 8) & 0xff;
    buffer[at + 2] = (written >>> 16) & 0xff;
    buffer[at + 3] = written >>> 24;
    this.length = at + 4 + written;
    return written;
  }

  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

// ---- Thrift's compact protocol, as much of it as the footer and page headers use ----

const T_TRUE = 1;
const T_FALSE = 2;
const T_I16 = 4;
const T_I32 = 5;
const T_I64 = 6;
const T_BINARY = 8;
const T_LIST = 9;
const T_STRUCT = 12;

class Thrift {
  #lastField = 0;
  readonly #outer: number[] = [];

  constructor(readonly out: Bytes) {}

  #field(id: number, type: number): void {
    const delta = id - this.#lastField;
    if (delta > 0 && delta <= 15) this.out.byte((delta << 4) | type);
    else {
      this.out.byte(type);
      this.#zigzag(id);
    }
    this.#lastField = id;
  }

  #zigzag(value: number): void {
    this.out.varint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  i16(id: number, value: number): this {
    this.#field(id, T_I16);
    this.#zigzag(value);
    return this;
  }

  i32(id: number, value: number): this {
    this.#field(id, T_I32);
    this.#zigzag(value);
    return this;
  }

  i64(id: number, value: number): this {
    this.#field(id, T_I64);
    this.#zigzag(value);
    return this;
  }

  bool(id: number, value: boolean): this {
    this.#field(id, value ? T_TRUE : T_FALSE);
    return this;
  }

  binary(id: number, bytes: Uint8Array): this {
    this.#field(id, T_BINARY);
    this.out.varint(bytes.length);
    this.out.append(bytes);
    return this;
  }

  string(id: number, text: string): this {
    return this.binary(id, Buffer.from(text, 'utf8'));
  }

  /** A list header; its elements follow (listStruct, listI32, listString). */
  list(id: number, elementType: number, size: number): this {
    this.#field(id, T_LIST);
    if (size < 15) this.out.byte((size << 4) | elementType);
    else {
      this.out.byte(0xf0 | elementType);
      this.out.varint(size);
    }
    return this;
  }

  i32List(id: number, values: readonly number[]): this {
    this.list(id, T_I32, values.length);
    for (let index = 0; index < values.length; index += 1) this.#zigzag(values[index]!);
    return this;
  }

  /** A list of one binary (a column chunk's path in the schema: its name). */
  binaryListOfOne(id: number, bytes: Uint8Array): this {
    this.list(id, T_BINARY, 1);
    this.out.varint(bytes.length);
    this.out.append(bytes);
    return this;
  }

  /** Opens a struct: a field of the one open (id), or an element of a list (no id). */
  begin(id?: number): this {
    if (id !== undefined) this.#field(id, T_STRUCT);
    this.#outer.push(this.#lastField);
    this.#lastField = 0;
    return this;
  }

  end(): this {
    this.out.byte(0);
    this.#lastField = this.#outer.pop() ?? 0;
    return this;
  }
}

// ---- Snappy (https://github.com/google/snappy/blob/main/format_description.txt) ----

const HASH_BITS = 14;
const MIN_HASH_BITS = 8;
const hashTable = new Int32Array(1 << HASH_BITS);
const BLOCK = 65536;

/** `input` Snappy-compressed onto `out`: greedy matching of 4-byte sequences, block by block, skipping ahead through what does not match. */
export function snappyCompress(input: Uint8Array, out: Bytes): void {
  out.varint(input.length);
  for (let start = 0; start < input.length; start += BLOCK) compressBlock(input, start, Math.min(input.length, start + BLOCK), out);
}

function compressBlock(input: Uint8Array, start: number, end: number, out: Bytes): void {
  // A table no larger than the block, as Snappy's own compressor sizes it: most pages of a sync are a
  // few hundred bytes, and clearing all 64 KiB of the table was half the cost of a 160-byte page.
  const bits = Math.min(HASH_BITS, Math.max(MIN_HASH_BITS, 32 - Math.clz32(end - start - 1)));
  hashTable.fill(-1, 0, 1 << bits);
  let literalStart = start;
  let at = start;
  const last = end - 4;
  while (at <= last) {
    const word = input[at]! | (input[at + 1]! << 8) | (input[at + 2]! << 16) | (input[at + 3]! << 24);
    const hash = Math.imul(word, 0x1e35a7bd) >>> (32 - bits);
    const candidate = hashTable[hash]!;
    hashTable[hash] = at;
    if (candidate >= 0 && input[candidate] === input[at] && input[candidate + 1] === input[at + 1] && input[candidate + 2] === input[at + 2] && input[candidate + 3] === input[at + 3]) {
      let length = 4;
      while (at + length < end && input[candidate + length] === input[at + length]) length += 1;
      emitLiteral(input, literalStart, at, out);
      emitCopy(at - candidate, length, out);
      at += length;
      literalStart = at;
    } else {
      // Snappy's own heuristic: the longer nothing has matched, the further the next try (one byte
      // more every 32 missed). A 30 KB page of links text: 160 to 64 µs, 0.5% larger.
      at += 1 + ((at - literalStart) >>> 5);
    }
  }
  emitLiteral(input, literalStart, end, out);
}

function emitLiteral(input: Uint8Array, start: number, end: number, out: Bytes): void {
  const length = end - start;
  if (length === 0) return;
  const stored = length - 1;
  if (stored < 60) out.byte(stored << 2);
  else if (stored < 0x100) {
    out.byte(60 << 2);
    out.byte(stored);
  } else {
    // A block is at most 64 KiB, so two bytes always hold the length.
    out.byte(61 << 2);
    out.byte(stored & 0xff);
    out.byte(stored >>> 8);
  }
  out.append(input, start, end);
}

function emitCopy(offset: number, length: number, out: Bytes): void {
  while (length > 0) {
    const piece = length > 64 ? (length - 64 < 4 ? 60 : 64) : length;
    if (piece >= 4 && piece <= 11 && offset < 2048) {
      out.byte(((offset >>> 8) << 5) | ((piece - 4) << 2) | 1);
      out.byte(offset & 0xff);
    } else {
      out.byte(((piece - 1) << 2) | 2);
      out.byte(offset & 0xff);
      out.byte(offset >>> 8);
    }
    length -= piece;
  }
}

// ---- Encodings ----

/** Runs of equal values in the RLE/bit-packing hybrid, RLE runs only: each a count and the value. */
function rleRuns(values: ArrayLike<number>, count: number, bitWidth: number, out: Bytes): void {
  const width = Math.ceil(bitWidth / 8);
  let index = 0;
  while (index < count) {
    const value = values[index]!;
    let run = 1;
    while (index + run < count && values[index + run] === value) run += 1;
    out.varint(run * 2);
    for (let byte = 0; byte < width; byte += 1) out.byte((value >>> (8 * byte)) & 0xff);
    index += run;
  }
}

/**
 * Whether a DECIMAL's 16 bytes at `a` hold less (negative), as much (0) or more than those at `b`:
 * the sign bit flipped, then byte by byte. Compared in place: Buffer.compare with offsets allocated on
 * each call, twice a value (min and max) in a short run's unoptimised code.
 */
function compareDecimal(bytes: Buffer, a: number, b: number): number {
  const signA = bytes[a]! ^ 0x80;
  const signB = bytes[b]! ^ 0x80;
  if (signA !== signB) return signA - signB;
  for (let offset = 1; offset < DECIMAL_BYTES; offset += 1) {
    const difference = bytes[a + offset]! - bytes[b + offset]!;
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Decimal digits taken at a time: a byte times 10^6 plus the carry stays a small integer (below 2^30). */
const DIGITS_AT_A_TIME = 6;

/**
 * Integer digits (at most 38, checked) as DECIMAL(38,0): 16 bytes, big-endian two's complement,
 * made in place: the bytes multiplied by 10^6 and the next six digits added, then negated for a
 * minus sign. No BigInt (an articleHash is past 2^53) and no Buffer writer: both allocated for each
 * value.
 */
function writeDecimal(digits: string, out: Bytes): void {
  out.ensure(DECIMAL_BYTES);
  const bytes = out.buffer;
  const first = out.length;
  const last = first + DECIMAL_BYTES - 1;
  for (let index = first; index <= last; index += 1) bytes[index] = 0;
  const negative = digits.charCodeAt(0) === 0x2d;
  // The lowest index a non-zero byte has reached: the bytes above it are zero and need no multiplying.
  let highest = last;
  for (let position = negative ? 1 : 0; position < digits.length; ) {
    const groupEnd = Math.min(digits.length, position + DIGITS_AT_A_TIME);
    let carry = 0;
    let scale = 1;
    for (; position < groupEnd; position += 1) {
      carry = carry * 10 + digits.charCodeAt(position) - 0x30;
      scale *= 10;
    }
    let index = last;
    for (; index >= highest || (carry !== 0 && index >= first); index -= 1) {
      const product = bytes[index]! * scale + carry;
      bytes[index] = product & 0xff;
      carry = product >>> 8;
    }
    highest = index + 1;
  }
  if (negative) {
    let carry = 1;
    for (let index = last; index >= first; index -= 1) {
      const sum = (~bytes[index]! & 0xff) + carry;
      bytes[index] = sum & 0xff;
      carry = sum >>> 8;
    }
  }
  out.length += DECIMAL_BYTES;
}

/**
 * One column of one row group, encoded: its pages' bodies (uncompressed) and its statistics. The
 * bodies are views of buffers the next column reuses (so a sync's many small files do not each
 * allocate their own): the caller compresses them before encoding the next column.
 */
interface EncodedColumn {
  dictionary?: { body: Buffer; size: number };
  data: Buffer;
  encoding: number;
  nulls: number;
  min?: Uint8Array;
  max?: Uint8Array;
}

/**
 * The definition levels of an OPTIONAL column (1 a value, 0 a null) as RLE runs, read off the values
 * as they lie: no array of levels. Returns the number of nulls.
 */
function levelsOf(values: readonly EncodedValue[], out: Bytes): number {
  const start = out.length;
  out.int32(0);
  let nulls = 0;
  let index = 0;
  while (index < values.length) {
    const isNull = values[index] === null;
    let run = 1;
    while (index + run < values.length && (values[index + run] === null) === isNull) run += 1;
    if (isNull) nulls += run;
    out.varint(run * 2);
    out.byte(isNull ? 0 : 1);
    index += run;
  }
  out.buffer.writeInt32LE(out.length - start - 4, start);
  return nulls;
}

const scratch = new Bytes(64 * 1024);
const groupScratch = new Bytes(64 * 1024);
const dictionaryScratch = new Bytes(16 * 1024);
const compressedScratch = new Bytes(64 * 1024);
const footerScratch = new Bytes(4096);

/**
 * Integers reused from column to column (a text column's row indexes, its dictionary entries' places
 * and lengths), grown when a column needs more: a sync writes thousands of small columns.
 */
class IntegerScratch {
  values: Int32Array = new Int32Array(1024);

  /** The array, at least `size` long, holding what it held. */
  atLeast(size: number): Int32Array {
    if (this.values.length < size) {
      const grown = new Int32Array(Math.max(size, this.values.length * 2));
      grown.set(this.values);
      this.values = grown;
    }
    return this.values;
  }
}

const rowIndexes = new IntegerScratch();
const entryStarts = new IntegerScratch();
const entryLengths = new IntegerScratch();

// The loops below run over indexes, not for...of: most of a short sync runs before V8 optimises
// them, and unoptimised for...of makes an iterator result for each value (a twentieth of a sync's
// garbage was those of encodeColumn and encodeText).
function encodeColumn(column: ParquetColumn, values: readonly EncodedValue[]): EncodedColumn {
  const body = scratch;
  body.length = 0;
  const nulls = column.required ? 0 : levelsOf(values, body);
  switch (column.kind) {
    case 'UTF8':
    case 'JSON':
      return encodeText(column, values, body, nulls);
    case 'BOOLEAN': {
      let bits = 0;
      let count = 0;
      let min: boolean | undefined;
      let max: boolean | undefined;
      for (let index = 0; index < values.length; index += 1) {
        const value = values[index];
        if (value === null) continue;
        if (value === true) bits |= 1 << count % 8;
        min = min === undefined ? value === true : min && value === true;
        max = max === undefined ? value === true : max || value === true;
        count += 1;
        if (count % 8 === 0) {
          body.byte(bits);
          bits = 0;
        }
      }
      if (count % 8 !== 0) body.byte(bits);
      if (min === undefined) return { data: body.view(), encoding: ENCODING.PLAIN, nulls };
      return { data: body.view(), encoding: ENCODING.PLAIN, nulls, min: Uint8Array.of(min ? 1 : 0), max: Uint8Array.of(max ? 1 : 0) };
    }
    case 'DECIMAL': {
      let minAt = -1;
      let maxAt = -1;
      for (let index = 0; index < values.length; index += 1) {
        const value = values[index];
        if (value === null) continue;
        const at = body.length;
        writeDecimal(value as string, body);
        if (minAt === -1 || compareDecimal(body.buffer, at, minAt) < 0) minAt = at;
        if (maxAt === -1 || compareDecimal(body.buffer, at, maxAt) > 0) maxAt = at;
      }
      const data = body.view();
      if (minAt === -1) return { data, encoding: ENCODING.PLAIN, nulls };
      return { data, encoding: ENCODING.PLAIN, nulls, min: copyOf(data, minAt, DECIMAL_BYTES), max: copyOf(data, maxAt, DECIMAL_BYTES) };
    }
    default: {
      // INT32, DOUBLE, TIMESTAMP: numbers.
      let min = Number.NaN;
      let max = Number.NaN;
      for (let index = 0; index < values.length; index += 1) {
        const value = values[index];
        if (value === null) continue;
        const number = value as number;
        if (column.kind === 'INT32') body.int32(number);
        else if (column.kind === 'DOUBLE') body.double(number);
        else body.int64(number);
        if (Number.isNaN(number)) continue;
        if (!(number >= min)) min = number;
        if (!(number <= max)) max = number;
      }
      const data = body.view();
      if (Number.isNaN(min)) return { data, encoding: ENCODING.PLAIN, nulls };
      return { data, encoding: ENCODING.PLAIN, nulls, min: plainNumber(column.kind, min, 'min'), max: plainNumber(column.kind, max, 'max') };
    }
  }
}

/** A statistics bound's bytes. For doubles the spec asks -0 as a minimum of zero, +0 as a maximum. */
function plainNumber(kind: ParquetKind, value: number, bound: 'min' | 'max'): Uint8Array {
  const bytes = new Bytes(8);
  if (kind === 'INT32') bytes.int32(value);
  else if (kind === 'DOUBLE') bytes.double(value === 0 ? (bound === 'min' ? -0 : 0) : value);
  else bytes.int64(value);
  return bytes.view();
}

/** A statistics bound, out of a buffer that is reused. */
function copyOf(bytes: Buffer, start: number, length: number): Buffer {
  return Buffer.from(bytes.subarray(start, start + length));
}

/**
 * Whether the `aLength` bytes at `a` sort before (negative), with (0) or after (positive) the
 * `bLength` bytes at `b`, both in `bytes`: UTF-8's byte order, which readers compare text in.
 */
function compareBytes(bytes: Uint8Array, a: number, aLength: number, b: number, bLength: number): number {
  const common = Math.min(aLength, bLength);
  for (let offset = 0; offset < common; offset += 1) {
    const difference = bytes[a + offset]! - bytes[b + offset]!;
    if (difference !== 0) return difference;
  }
  return aLength - bLength;
}

/** Text and JSON: a dictionary of the distinct values, and each row's index into it. */
function encodeText(column: ParquetColumn, values: readonly EncodedValue[], body: Bytes, nulls: number): EncodedColumn {
  const index = new Map<string, number>();
  const dictionary = dictionaryScratch;
  dictionary.length = 0;
  const indexes = rowIndexes.atLeast(values.length - nulls);
  let starts = entryStarts.values;
  let lengths = entryLengths.values;
  let count = 0;
  for (let row = 0; row < values.length; row += 1) {
    const value = values[row];
    if (value === null) continue;
    const text = value as string;
    let position = index.get(text);
    if (position === undefined) {
      position = index.size;
      index.set(text, position);
      const at = dictionary.length;
      const length = dictionary.lengthAndUtf8(text);
      if (position === starts.length) {
        starts = entryStarts.atLeast(position + 1);
        lengths = entryLengths.atLeast(position + 1);
      }
      starts[position] = at + 4;
      lengths[position] = length;
    }
    indexes[count++] = position;
  }
  const entries = index.size;
  const bitWidth = Math.max(1, 32 - Math.clz32(Math.max(0, entries - 1)));
  body.byte(bitWidth);
  rleRuns(indexes, count, bitWidth, body);
  const bytes = dictionary.view();
  const encoded: EncodedColumn = { dictionary: { body: bytes, size: entries }, data: body.view(), encoding: ENCODING.RLE_DICTIONARY, nulls };
  if (column.kind === 'UTF8' && entries > 0) {
    // Bounds over the distinct values only, compared where they lie in the dictionary.
    let min = 0;
    let max = 0;
    for (let entry = 1; entry < entries; entry += 1) {
      if (compareBytes(bytes, starts[entry]!, lengths[entry]!, starts[min]!, lengths[min]!) < 0) min = entry;
      if (compareBytes(bytes, starts[entry]!, lengths[entry]!, starts[max]!, lengths[max]!) > 0) max = entry;
    }
    if (lengths[min]! <= STATS_MAX_BYTES && lengths[max]! <= STATS_MAX_BYTES) {
      encoded.min = copyOf(bytes, starts[min]!, lengths[min]!);
      encoded.max = copyOf(bytes, starts[max]!, lengths[max]!);
    }
  }
  return encoded;
}

// ---- The file ----

interface ChunkMeta {
  column: ParquetColumn;
  encodings: readonly number[];
  values: number;
  uncompressed: number;
  compressed: number;
  dataPageOffset: number;
  dictionaryPageOffset: number | undefined;
  nulls: number;
  min: Uint8Array | undefined;
  max: Uint8Array | undefined;
}

/** The encodings a column chunk lists: with a dictionary, or PLAIN values alone (RLE: the levels). */
const DICTIONARY_CHUNK_ENCODINGS: readonly number[] = [ENCODING.PLAIN, ENCODING.RLE, ENCODING.RLE_DICTIONARY];
const PLAIN_CHUNK_ENCODINGS: readonly number[] = [ENCODING.PLAIN, ENCODING.RLE];

interface RowGroupMeta {
  chunks: ChunkMeta[];
  rows: number;
  offset: number;
  uncompressed: number;
  compressed: number;
}

const MAGIC = Buffer.from('PAR1', 'latin1');

/**
 * A Parquet file written a row group at a time: group() returns the bytes of the next row group (the
 * first with the file's leading magic), footer() those of the footer. The caller writes them in order.
 */
export class ParquetFileWriter {
  readonly #groups: RowGroupMeta[] = [];
  #offset = 0;

  /** Each column's name in UTF-8, made once for the footer's schema and each column chunk's path. */
  readonly #names: Buffer[];

  constructor(readonly columns: readonly ParquetColumn[], readonly createdBy: string) {
    this.#names = columns.map((column) => Buffer.from(column.name, 'utf8'));
  }

  /** A row group's bytes from each column's values (one array a column, all of one length). */
  group(columnValues: ReadonlyArray<readonly EncodedValue[]>, rows: number): Buffer {
    const out = groupScratch;
    out.length = 0;
    if (this.#offset === 0) out.append(MAGIC);
    const group: RowGroupMeta = { chunks: [], rows, offset: this.#offset + out.length, uncompressed: 0, compressed: 0 };
    for (let index = 0; index < this.columns.length; index += 1) {
      const column = this.columns[index]!;
      const chunk = this.#chunk(column, encodeColumn(column, columnValues[index]!), rows, out);
      group.chunks.push(chunk);
      group.uncompressed += chunk.uncompressed;
      group.compressed += chunk.compressed;
    }
    this.#groups.push(group);
    this.#offset += out.length;
    // A copy the size of the group: a new 64 KiB buffer for each of a sync's small files was more
    // garbage than the files' own bytes.
    return Buffer.from(out.view());
  }

  #chunk(column: ParquetColumn, encoded: EncodedColumn, rows: number, out: Bytes): ChunkMeta {
    const chunkStart = this.#offset + out.length;
    let uncompressed = 0;
    let dictionaryPageOffset: number | undefined;
    if (encoded.dictionary) {
      dictionaryPageOffset = chunkStart;
      uncompressed += this.#page(out, encoded.dictionary.body, PAGE.DICTIONARY_PAGE, encoded.dictionary.size, ENCODING.PLAIN);
    }
    const dataPageOffset = this.#offset + out.length;
    uncompressed += this.#page(out, encoded.data, PAGE.DATA_PAGE, rows, encoded.encoding);
    return {
      column,
      encodings: encoded.dictionary ? DICTIONARY_CHUNK_ENCODINGS : PLAIN_CHUNK_ENCODINGS,
      values: rows,
      uncompressed,
      compressed: this.#offset + out.length - chunkStart,
      dataPageOffset,
      dictionaryPageOffset,
      nulls: encoded.nulls,
      min: encoded.min,
      max: encoded.max,
    };
  }

  /**
   * A page: its header and its compressed body. `count` and `encoding`: a dictionary page's entries
   * and their encoding, or a data page's values and theirs.
   */
  #page(out: Bytes, body: Buffer, type: number, count: number, encoding: number): number {
    const compressed = compressedScratch;
    compressed.length = 0;
    snappyCompress(body, compressed);
    const headerStart = out.length;
    const thrift = new Thrift(out).begin().i32(1, type).i32(2, body.length).i32(3, compressed.length);
    if (type === PAGE.DICTIONARY_PAGE) thrift.begin(7).i32(1, count).i32(2, encoding).end();
    else thrift.begin(5).i32(1, count).i32(2, encoding).i32(3, ENCODING.RLE).i32(4, ENCODING.RLE).end();
    thrift.end();
    const headerLength = out.length - headerStart;
    out.append(compressed.buffer, 0, compressed.length);
    return headerLength + body.length;
  }

  /** The footer's bytes (and the leading magic when no row group was written). */
  footer(): Buffer {
    const out = footerScratch;
    out.length = 0;
    if (this.#offset === 0) out.append(MAGIC);
    const metaStart = out.length;
    const thrift = new Thrift(out).begin().i32(1, 2);
    thrift.list(2, T_STRUCT, this.columns.length + 1);
    thrift.begin().string(4, 'root').i32(5, this.columns.length).end();
    for (let index = 0; index < this.columns.length; index += 1) schemaElement(thrift, this.columns[index]!, this.#names[index]!);
    let rows = 0;
    for (let ordinal = 0; ordinal < this.#groups.length; ordinal += 1) rows += this.#groups[ordinal]!.rows;
    thrift.i64(3, rows);
    thrift.list(4, T_STRUCT, this.#groups.length);
    for (let ordinal = 0; ordinal < this.#groups.length; ordinal += 1) {
      const group = this.#groups[ordinal]!;
      thrift.begin().list(1, T_STRUCT, group.chunks.length);
      for (let index = 0; index < group.chunks.length; index += 1) columnChunk(thrift, group.chunks[index]!, this.#names[index]!);
      thrift.i64(2, group.uncompressed).i64(3, group.rows).i64(5, group.offset).i64(6, group.compressed);
      thrift.i16(7, ordinal).end();
    }
    thrift.string(6, this.createdBy);
    thrift.list(7, T_STRUCT, this.columns.length);
    for (let index = 0; index < this.columns.length; index += 1) thrift.begin().begin(1).end().end();
    thrift.end();
    const length = out.length - metaStart;
    out.int32(length);
    out.append(MAGIC);
    // A copy of its size, as group() returns, the buffer kept for the next file's footer.
    return Buffer.from(out.view());
  }
}

function schemaElement(thrift: Thrift, column: ParquetColumn, name: Uint8Array): void {
  thrift.begin().i32(1, PHYSICAL[column.kind]);
  if (column.kind === 'DECIMAL') thrift.i32(2, DECIMAL_BYTES);
  thrift.i32(3, column.required ? REQUIRED : OPTIONAL).binary(4, name);
  switch (column.kind) {
    case 'DECIMAL':
      thrift.i32(6, CONVERTED.DECIMAL).i32(7, 0).i32(8, DECIMAL_DIGITS);
      thrift.begin(10).begin(5).i32(1, 0).i32(2, DECIMAL_DIGITS).end().end();
      break;
    case 'UTF8':
      thrift.i32(6, CONVERTED.UTF8).begin(10).begin(1).end().end();
      break;
    case 'JSON':
      // The JSON logical type with the legacy UTF8 annotation, as before this writer: DuckDB reads
      // the column as VARCHAR holding the JSON text (docs/types.md).
      thrift.i32(6, CONVERTED.UTF8).begin(10).begin(12).end().end();
      break;
    case 'TIMESTAMP':
      // The logical type alone: with the legacy TIMESTAMP_MILLIS annotation beside it, some readers
      // (DuckDB 1.5) take the legacy one and lose the zone.
      thrift.begin(10).begin(8).bool(1, true).begin(2).begin(1).end().end().end().end();
      break;
    default:
      break;
  }
  thrift.end();
}

function columnChunk(thrift: Thrift, chunk: ChunkMeta, name: Uint8Array): void {
  thrift.begin().i64(2, chunk.dictionaryPageOffset ?? chunk.dataPageOffset).begin(3);
  thrift.i32(1, PHYSICAL[chunk.column.kind]).i32List(2, chunk.encodings).binaryListOfOne(3, name).i32(4, SNAPPY);
  thrift.i64(5, chunk.values).i64(6, chunk.uncompressed).i64(7, chunk.compressed).i64(9, chunk.dataPageOffset);
  if (chunk.dictionaryPageOffset !== undefined) thrift.i64(11, chunk.dictionaryPageOffset);
  thrift.begin(12).i64(3, chunk.nulls);
  if (chunk.min && chunk.max) thrift.binary(5, chunk.max).binary(6, chunk.min);
  thrift.end();
  thrift.end().end();
}
