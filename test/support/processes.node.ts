import fs from 'node:fs';

/**
 * Sends SIGTERM to every process whose command line mentions `text` (a test's own temporary data
 * folder): a host relaunched by a restart is not the test's child, so it is found this way.
 */
export function killProcessesMentioning(text: string) {
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)) process.kill(Number(pid), 'SIGTERM');
    } catch {
      // Gone already, or not ours to read.
    }
  }
}
