import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';

// RuleTester runs each case as a test of the framework it finds: here, vitest's.
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

/** Rule cases are parsed as the project's TypeScript is (imports with types, type references). */
export const ruleTester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
});

/** The repository the cases pretend to be in (its root is where vitest runs, as ESLint's). */
export const REPO = process.cwd();

/** An absolute file name in the pretend repository: `inRepo('renderer/a.dom.ts')`. */
export const inRepo = (file: string) => path.join(REPO, file);
