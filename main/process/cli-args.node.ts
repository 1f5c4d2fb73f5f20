import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Parses argv with node's own parser and turns a usage mistake into a message and exit code 2. */
export function parseCliArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
}
