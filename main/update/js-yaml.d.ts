// js-yaml 4 ships no types (and @types/js-yaml is not installed): the one function the feed
// reader uses. It is electron-updater's own YAML parser, so the feed is read as the updater reads it.
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
