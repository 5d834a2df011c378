/**
 * Loads exceljs's streaming writer for `-f xlsx`. exceljs is an optional peer dependency, not a
 * dependency: it installs 177 packages (23 MB) that no other run uses, against the 3 packages of
 * everything else newsstats needs (docs/install.md, "xlsx needs exceljs"). Without it, `-f xlsx` says how to add it.
 */
import type WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import { OutputUsageError } from './errors.js';

/** The version newsstats is tested with: the writer's path is inside the package, not its entry. */
export const EXCELJS_VERSION = '4.4.0';

export const EXCELJS_MISSING =
  `-f xlsx needs exceljs, which is not installed with newsstats: run \`npm install -g exceljs@${EXCELJS_VERSION}\` ` +
  '(beside a global newsstats; in a project, `npm install exceljs`), or choose csv, tsv, json or ndjson';

/** True when `error` is Node failing to find exceljs itself (not a module exceljs needs). */
export function isExceljsMissing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  return /['"]exceljs(\/[^'"]*)?['"]/.test(error.message);
}

export async function loadWorkbookWriter(load = () => import('exceljs/lib/stream/xlsx/workbook-writer.js')): Promise<typeof WorkbookWriter> {
  try {
    return (await load()).default;
  } catch (error) {
    if (isExceljsMissing(error)) throw new OutputUsageError(EXCELJS_MISSING);
    throw error;
  }
}
