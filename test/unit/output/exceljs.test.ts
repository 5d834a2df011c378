/** exceljs is an optional peer: without it, -f xlsx is a usage error that says how to install it. */
import { describe, expect, it } from 'vitest';
import { OutputUsageError } from '../../../src/output/errors.js';
import { EXCELJS_MISSING, loadWorkbookWriter } from '../../../src/output/exceljs.js';

function notFound(specifier: string, code = 'MODULE_NOT_FOUND'): Error {
  return Object.assign(new Error(`Cannot find module '${specifier}'\nRequire stack:\n- /x/dist/chunks/xlsx.js`), { code });
}

describe('loadWorkbookWriter', () => {
  it('exceljs absent (CommonJS or ES module loader): a usage error naming the install command', async () => {
    for (const code of ['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND']) {
      const loading = loadWorkbookWriter(() => Promise.reject(notFound('exceljs/lib/stream/xlsx/workbook-writer.js', code)));
      await expect(loading).rejects.toThrow(OutputUsageError);
      await expect(loading).rejects.toThrow(EXCELJS_MISSING);
    }
    expect(EXCELJS_MISSING).toContain('npm install -g exceljs@4.4.0');
  });

  it('a module exceljs itself lacks is not reported as exceljs missing', async () => {
    const broken = notFound('jszip');
    await expect(loadWorkbookWriter(() => Promise.reject(broken))).rejects.toBe(broken);
  });

  it('exceljs installed: its WorkbookWriter', async () => {
    const writer = await loadWorkbookWriter();
    expect(writer.name).toBe('WorkbookWriter');
  });
});
