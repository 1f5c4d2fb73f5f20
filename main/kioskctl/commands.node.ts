import path from 'node:path';
import { ConfigError, type ConfigStore } from '../config/config-store.node.ts';
import { openProvisionedConfig } from '../config/provisioning.node.ts';
import { CONFIG_KEYS } from '../config/config-keys.std.ts';
import { createLogger, FileLogSink } from '../logging/file-logger.node.ts';
import type { Logger } from '../logging/logger.std.ts';

export interface KioskctlContext {
  dataDir: string;
  args: string[];
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit codes scripts can rely on: 2 means the request itself was refused and nothing changed. */
export const EXIT = { ok: 0, failed: 1, refused: 2 } as const;

const USAGE = `usage: npm run kioskctl -- [--data DIR] <command>

  config show                 every setting, as JSON
  config get <key>            one setting, as JSON
  config set <key> <value>    change one setting (checked first; nothing is written when refused)
  config keys                 the settable keys

The data folder defaults to the one the kiosk app uses.
`;

interface Command {
  args: string[];
  run(context: KioskctlContext, tools: Tools, ...args: string[]): number | Promise<number>;
}

interface Tools {
  logger: Logger;
  config(): ConfigStore;
}

const commands: Record<string, Command> = {
  'config show': {
    args: [],
    run: (context, tools) => {
      context.stdout(`${JSON.stringify(tools.config().get(), null, 2)}\n`);
      return EXIT.ok;
    },
  },
  'config get': {
    args: ['key'],
    run: (context, tools, key) => {
      context.stdout(`${JSON.stringify(tools.config().getKey(key))}\n`);
      return EXIT.ok;
    },
  },
  'config set': {
    args: ['key', 'value'],
    run: (context, tools, key, value) => {
      const store = tools.config();
      store.setFromText(key, value);
      tools.logger.info('setting changed by kioskctl', { key });
      context.stdout(`${key} = ${JSON.stringify(store.getKey(key))}\n`);
      return EXIT.ok;
    },
  },
  'config keys': {
    args: [],
    run: (context) => {
      context.stdout(`${CONFIG_KEYS.join('\n')}\n`);
      return EXIT.ok;
    },
  },
};

export async function runKioskctl(context: KioskctlContext): Promise<number> {
  const [group = 'help', verb = '', ...rest] = context.args;
  if (group === 'help') {
    context.stdout(USAGE);
    return EXIT.ok;
  }
  const command = commands[`${group} ${verb}`];
  if (!command || rest.length !== command.args.length) {
    const expected = command ? ` ${command.args.map((name) => `<${name}>`).join(' ')}` : '';
    context.stderr(`kioskctl: ${command ? `expected ${group} ${verb}${expected}` : `unknown command "${context.args.join(' ')}"`}\n${USAGE}`);
    return EXIT.refused;
  }
  const logSink = new FileLogSink({ dir: path.join(context.dataDir, 'logs') });
  const logger = createLogger(logSink).child({ tool: 'kioskctl' });
  let store: ConfigStore | undefined;
  const tools: Tools = { logger, config: () => (store ??= openProvisionedConfig(context.dataDir, logger)) };
  try {
    return await command.run(context, tools, ...rest);
  } catch (error) {
    if (error instanceof ConfigError) {
      context.stderr(`kioskctl: ${error.message}\n`);
      return EXIT.refused;
    }
    throw error;
  }
}
