import { describe, expect, it } from 'vitest';
import { fleetTopics } from './fleet-messages.std.ts';

describe('a kiosk\'s fleet topics', () => {
  const topics = fleetTopics('loyalty-kiosk', 'store-1', ['region-north']);

  it('takes commands on its own topic, its groups\', the whole fleet\'s and Home Assistant\'s topic for it (#28 §2)', () => {
    expect(topics.commands).toEqual(['loyalty-kiosk/store-1/cmd/+', 'loyalty-kiosk/group/region-north/cmd/+', 'loyalty-kiosk/all/cmd/+', 'loyalty-kiosk/store-1/ha/+']);
    expect(topics.commandOf('loyalty-kiosk/all/cmd/doctor')).toBe('doctor');
    expect(topics.commandOf('loyalty-kiosk/store-1/cmd/doctor/result')).toBeNull();
  });

  it('takes only restart and reload on Home Assistant\'s topic, what its buttons press (#28 §2)', () => {
    expect(topics.homeAssistantCommand('restart')).toBe('loyalty-kiosk/store-1/ha/restart');
    expect(topics.commandOf('loyalty-kiosk/store-1/ha/restart')).toBe('restart');
    expect(topics.commandOf('loyalty-kiosk/store-1/ha/reload')).toBe('reload');
    for (const other of ['config-set', 'doctor', 'restart/result', '']) expect(topics.commandOf(`loyalty-kiosk/store-1/ha/${other}`)).toBeNull();
  });
});
