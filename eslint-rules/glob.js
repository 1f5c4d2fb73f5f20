/**
 * Path globs for the layer table: `**` any number of folders, `*` any part of one name, `{a,b}`
 * either alternative. Enough for a readable table without a glob dependency.
 */

const REGEX_SPECIAL = /[.+?^$()|[\]\\]/;

/** @param {string} glob @returns {RegExp} anchored, matching repository paths with `/` separators */
export function globToRegExp(glob) {
  let source = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (glob.startsWith('**/', i)) {
      source += '(?:[^/]+/)*';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) {
      source += '|';
    } else {
      source += REGEX_SPECIAL.test(char) ? `\\${char}` : char;
    }
  }
  return new RegExp(`^${source}$`);
}

/** @param {readonly string[]} globs @returns {(path: string) => boolean} true when any glob matches */
export function anyGlob(globs) {
  const regexes = globs.map(globToRegExp);
  return (path) => regexes.some((regex) => regex.test(path));
}
