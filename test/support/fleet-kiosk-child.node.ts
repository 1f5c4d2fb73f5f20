import { silentLogger } from '../../main/logging/logger.std.ts';
import { startFleetClient } from '../../main/fleet/fleet-client.node.ts';

/**
 * A kiosk's fleet client alone in its own process, for tests that SIGKILL it (the Last Will).
 * argv[2]: JSON { url, username, password, kioskId, topicPrefix }. Prints `online` once connected.
 */
const settings = JSON.parse(process.argv[2] ?? '{}');
const client = startFleetClient({
  ...settings,
  logger: silentLogger,
  commands: {},
  health: async () => {
    throw new Error('no health in this child');
  },
});
const poll = setInterval(() => {
  if (client.state().state !== 'online') return;
  clearInterval(poll);
  process.stdout.write('online\n');
}, 20);
