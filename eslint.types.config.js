import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/*
 * The type-aware lint (`npm run lint:types`): a promise nobody awaits, or one handed where a
 * callback's result is dropped (a timer, an event listener), loses its rejection. It needs the
 * type checker, so it runs apart from the fast `npm run lint`, on the Node code only. Where
 * fire-and-forget is meant, write `void` and handle the error in the chain.
 */
export default defineConfig({
  files: ['{main,base,preload}/**/*.ts'],
  ignores: ['**/*.test.ts', '**/*.test-support.ts'],
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
  },
  linterOptions: { reportUnusedDisableDirectives: 'off' },
  plugins: { '@typescript-eslint': tseslint.plugin },
  rules: {
    '@typescript-eslint/no-floating-promises': 'error',
    '@typescript-eslint/no-misused-promises': 'error',
  },
});
