import { parseArgs } from 'node:util';
// Node-only modules are imported with `.ts`: tsx reads a bare `.node` suffix as a native addon.
import { defaultSandboxDataDir } from './data-dir.node.ts';
import { SandboxStateError, startSandbox } from './sandbox.node.ts';

/** `tsx sandbox/cli.node.ts [--port N] [--portal-port N] [--data DIR]`: the loyalty sandbox as a local server. */

const USAGE = `Usage: tsx sandbox/cli.node.ts [--port N] [--portal-port N] [--data DIR]
  --port N         port on 127.0.0.1 (default 4010; 0 picks a free one)
  --portal-port N  serve the hosted session pages on this port, an origin of their own (as on the platform)
  --data DIR       state folder (default ${defaultSandboxDataDir()})`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

let options: { port?: string; 'portal-port'?: string; data?: string; help?: boolean };
try {
  ({ values: options } = parseArgs({
    options: { port: { type: 'string' }, 'portal-port': { type: 'string' }, data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (options.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const portOf = (text: string) => {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`Not a port: ${text}`);
  return port;
};
const port = portOf(options.port ?? '4010');
const portalPort = options['portal-port'] === undefined ? undefined : portOf(options['portal-port']);

const logger = {
  info: (message: string, fields?: Record<string, unknown>) =>
    process.stderr.write(`${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
  error: (message: string, fields?: Record<string, unknown>) =>
    process.stderr.write(`ERROR ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
};

try {
  const sandbox = await startSandbox({ port, portalPort, dataDir: options.data ?? defaultSandboxDataDir(), logger });
  process.stdout.write(`Loyalty sandbox listening on ${sandbox.baseUrl}\n`);
  if (sandbox.portalOrigin !== new URL(sandbox.baseUrl).origin) process.stdout.write(`Hosted session pages on ${sandbox.portalOrigin}\n`);
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Sandbox did not close cleanly: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  process.stderr.write(`Loyalty sandbox could not start: ${(error as Error).message}\n`);
  // A damaged state file is a configuration error (EX_CONFIG), as it is for the kiosk.
  process.exit(error instanceof SandboxStateError ? 78 : 1);
}
