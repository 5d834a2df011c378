#!/usr/bin/env node
// The CSV writer (csv-stringify's stream, src/output/csv.ts) against the hand-written writer it
// replaced (0.1.0, copied below as the baseline), in one run:
//   - 100k six-column rows shaped like `export country-stats` (exact numbers as LosslessNumbers,
//     names with commas and quotes, negative sentiments), written to a stream that discards them,
//     both row by row through the streaming sink (what exports do) and buffered (renderView).
// (What csv-stringify costs to import: npm run bench:imports.) Runs alternate so both writers see the same machine; medians and ratios are printed.
//
//   npm run bench:csv [-- --runs 7 --rows 100000]
//
// Bundles the modules it measures from src/ (bench/lib.mjs loadSource): no build needed.
import { Writable } from 'node:stream';
import { LosslessNumber } from 'lossless-json';
import { loadSource, median, numberFlag } from './lib.mjs';

const { csvRenderer } = await loadSource('output/csv.ts');
const { csvCellText, guardFormula } = await loadSource('output/flatten.ts');
const { fieldValue, fieldsWithRowKeys, rowsOf } = await loadSource('output/view.ts');
const { TextWriter } = await loadSource('output/writer.ts');

const runs = numberFlag('--runs', 7);
const rowCount = numberFlag('--rows', 100_000);

// The 0.1.0 writer, unchanged but for the TSV branch: the baseline. Not used by newsstats.
const NEEDS_QUOTES = /[",\r\n]/;
const quoteField = (text) => (NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
const recordLine = (texts) => texts.map(quoteField).join(',') + '\n';
const headerLine = (columns) => recordLine(columns.map(guardFormula));
const rowLine = (row, columns) => recordLine(columns.map((column) => csvCellText(fieldValue(row, column))));
const handWrittenRenderer = {
  async render(view, options, writer) {
    const rows = rowsOf(view);
    const columns = options.fields ?? fieldsWithRowKeys(view.fields, rows);
    if (options.header) await writer.write(headerLine(columns));
    for (const row of rows) await writer.write(rowLine(row, columns));
  },
  openSink(spec, options, writer) {
    let columns;
    const startWith = async (firstRow) => {
      columns = options.fields ?? fieldsWithRowKeys(spec.fields, firstRow ? [firstRow] : []);
      if (options.header) await writer.write(headerLine(columns));
      return columns;
    };
    return {
      async write(row) {
        await writer.write(rowLine(row, columns ?? (await startWith(row))));
        writer.flushSoon();
      },
      async end() {
        if (!columns) await startWith(undefined);
        await writer.flush();
      },
    };
  },
};

const fields = ['personHash', 'fullName', 'countryCode', 'mentionCount', 'dominance', 'sentiment'];
const rows = Array.from({ length: rowCount }, (_, i) => ({
  personHash: `person-${i % 480}-${(i * 7919) % 10_000}`,
  fullName: i % 10 === 0 ? `Okafor, "Chiamaka" ${i}` : `Chiamaka Okafor ${i}`,
  countryCode: ['DE', 'FR', 'NG', 'JP', 'US'][i % 5],
  mentionCount: new LosslessNumber(String(1_000 + (i % 997))),
  dominance: new LosslessNumber(`0.${String((i * 37) % 1000).padStart(3, '0')}`),
  sentiment: new LosslessNumber(i % 3 === 0 ? '-0.25' : '0.125'),
}));
const options = { format: 'csv', header: true, color: false, isTTY: false, width: 80, unicode: true };

/** A stream that takes everything at once and keeps only the byte count. */
function discardingStream() {
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      stream.bytes += chunk.length;
      callback();
    },
  });
  stream.bytes = 0;
  return stream;
}

async function timeWriter(renderer, mode) {
  const out = discardingStream();
  const writer = new TextWriter(out);
  const started = process.hrtime.bigint();
  if (mode === 'streamed') {
    const sink = renderer.openSink({ fields }, options, writer);
    for (const row of rows) await sink.write(row);
    await sink.end();
  } else {
    await renderer.render({ data: rows, fields }, options, writer);
    await writer.flush();
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, bytes: out.bytes };
}

console.log(`CSV writers, ${rowCount} rows x ${fields.length} columns, ${runs} runs each, Node ${process.version}`);
console.log('| mode | csv-stringify ms | hand-written ms | ratio | µs a row (csv-stringify) |');
console.log('|---|---:|---:|---:|---:|');
for (const mode of ['streamed', 'buffered']) {
  // One warm-up each, so neither pays for JIT compilation in the timed runs.
  const expected = (await timeWriter(handWrittenRenderer, mode)).bytes;
  if ((await timeWriter(csvRenderer, mode)).bytes !== expected) throw new Error(`${mode}: the writers disagree on the bytes`);
  const stringifyTimes = [];
  const handTimes = [];
  const ratios = [];
  for (let run = 0; run < runs; run += 1) {
    const hand = (await timeWriter(handWrittenRenderer, mode)).ms;
    const viaStringify = (await timeWriter(csvRenderer, mode)).ms;
    handTimes.push(hand);
    stringifyTimes.push(viaStringify);
    ratios.push(viaStringify / hand);
  }
  const perRow = (median(stringifyTimes) * 1000) / rowCount;
  console.log(`| ${mode} | ${median(stringifyTimes).toFixed(0)} | ${median(handTimes).toFixed(0)} | ${median(ratios).toFixed(2)}x | ${perRow.toFixed(2)} |`);
}
