/** The project's own ESLint plugin: the layer table (allow-list per layer) and the file suffixes. */
import allowedImports from './allowed-imports.js';
import fileSuffix from './file-suffix.js';

export { ANY_PACKAGE, NODE_BUILTINS } from './allowed-imports.js';

export default {
  meta: { name: 'layers' },
  rules: { 'allowed-imports': allowedImports, 'file-suffix': fileSuffix },
};
