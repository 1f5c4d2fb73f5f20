/** A wait as m:ss (4:05), rounded up so it never shows 0:00 while still waiting. */
export function minutesSeconds(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** ASCII names of the control characters scanners send: line ends, tab, and GS1's group separator. */
const CONTROL_NAMES: Record<string, string> = { '\t': 'TAB', '\n': 'LF', '\r': 'CR', '\u001b': 'ESC', '\u001d': 'GS', '\u001e': 'RS', '\u0004': 'EOT' };

/** Control characters made visible ([CR], [GS], [0x07]), so a scanner test shows what really arrived. */
export function visibleControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (char) => {
    const name = CONTROL_NAMES[char] ?? `0x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
    return `[${name}]`;
  });
}
