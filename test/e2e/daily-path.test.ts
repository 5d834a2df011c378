/**
 * The small things on a user's daily path (#18), in-process against a logged sandbox: what a flag
 * accepts, what a slip suggests, which exit code a refusal has. What a person sees at a terminal is
 * in terminal.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { expectFailure, readLog, runCli, useLoggedSandbox } from './harness.js';

const logged = useLoggedSandbox();

/** The query the CLI sent for a path, from the sandbox's log (its newest request to that path). */
async function lastQuery(pathPart: string): Promise<Record<string, string | string[]>> {
  const entries = (await readLog(logged.log)).filter((entry) => entry.path.includes(pathPart));
  return entries.at(-1)!.query;
}

describe('--gender takes a name', () => {
  test.each([
    ['female', 1],
    ['Male', 2],
    ['non-binary', 3],
    ['unknown', 0],
    ['2', 2],
  ])('people search --gender %s sends gender=%i, and every person found has it', async (gender, code) => {
    const result = await runCli(['people', 'search', 'a', '--gender', gender, '--limit', '20', '-f', 'json'], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
    const people = JSON.parse(result.stdout) as Array<{ gender: number }>;
    expect(people.length).toBeGreaterThan(0);
    expect(new Set(people.map((person) => person.gender))).toEqual(new Set([code]));
  });

  test('people top --gender female sends the code', async () => {
    const result = await runCli(['people', 'top', '--weeks', '202644..202647', '--gender', 'female', '--limit', '3', '-f', 'json'], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
    expect((await lastQuery('people/top')).gender).toBe('1');
  });

  test('a word it does not know is exit 2 naming the values, with the closest', async () => {
    const line = expectFailure(await runCli(['people', 'top', '--gender', 'femal'], { env: logged.env }), 2);
    expect(line).toBe("error: option '--gender <gender>' argument 'femal' is invalid. --gender takes female, male, non-binary, unknown or a code (an integer of at least 0); did you mean female?");
  });

  test('--help lists the values', async () => {
    const help = (await runCli(['people', 'search', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--gender <gender> only people of this gender: female (1), male (2), non-binary (3), unknown (0), or another code');
  });
});
