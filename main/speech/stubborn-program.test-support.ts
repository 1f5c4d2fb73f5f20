import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Whether process `pid` is alive: it exists and is no zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * A stand-in for an espeak-ng or pactl that ignores SIGTERM (`name` is the program's file name): each
 * run writes its pid down, then sleeps in that same process (exec keeps the ignored SIGTERM), so
 * only SIGKILL ends it early.
 */
export function stubbornProgram(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stubborn-program-'));
  const pidFile = path.join(dir, 'started');
  const program = path.join(dir, name);
  fs.writeFileSync(pidFile, '');
  fs.writeFileSync(program, `#!/bin/sh\ntrap '' TERM\necho $$ >> '${pidFile}'\nexec sleep 120\n`, { mode: 0o755 });
  const started = () => fs.readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number);
  return {
    program,
    /** The pid of every run so far, first run first. */
    started,
    alive: () => started().filter(isAlive),
    /** Ends every run still alive (after a test). */
    killAll: () => {
      for (const pid of started().filter(isAlive)) process.kill(pid, 'SIGKILL');
    },
  };
}
