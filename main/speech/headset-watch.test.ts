import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { silentLogger } from '../logging/logger.std.ts';
import { until } from '../../test/support/until.std.ts';
import { watchHeadset } from './headset-watch.node.ts';
import { sinks, standInPactl } from './stand-in-pactl.test-support.ts';

const SPEAKER = sinks('analog-output-speaker', 'not available');
const HEADSET = sinks('analog-output-headphones', 'available');

describe('watchHeadset (#33 §4)', () => {
  it('says a headset was plugged in when the sound server steps from speaker to headset, once per plug', async () => {
    const pactl = standInPactl(SPEAKER);
    const plugged = vi.fn();
    const watch = watchHeadset({ onPlugged: plugged, logger: silentLogger, command: pactl.program });
    onTestFinished(() => watch.stop());
    await watch.ready;

    pactl.change(HEADSET);
    await until(() => plugged.mock.calls.length === 1, { timeoutMs: 10_000, failure: 'the headset was not noticed' });
    // Another change with the headset still in (the volume, say) is no new plug.
    pactl.change(HEADSET);
    pactl.change(SPEAKER);
    await until(() => !watch.headset(), { timeoutMs: 10_000, failure: 'the headset pulled out was not noticed' });
    expect(plugged).toHaveBeenCalledTimes(1);
    pactl.change(HEADSET);
    await until(() => plugged.mock.calls.length === 2, { timeoutMs: 10_000, failure: 'the headset plugged in again was not noticed' });
  });

  it('takes a headset in at the start for no plug: nobody plugged it in for this shopper', async () => {
    const pactl = standInPactl(HEADSET);
    const plugged = vi.fn();
    const watch = watchHeadset({ onPlugged: plugged, logger: silentLogger, command: pactl.program });
    onTestFinished(() => watch.stop());
    await watch.ready;
    expect(plugged).not.toHaveBeenCalled();
    // Pulled, and plugged in again: that is a plug.
    pactl.change(SPEAKER);
    await until(() => !watch.headset(), { timeoutMs: 10_000, failure: 'the headset pulled out was not noticed' });
    pactl.change(HEADSET);
    await until(() => plugged.mock.calls.length === 1, { timeoutMs: 10_000, failure: 'the headset plugged in again was not noticed' });
  });

  it('says once that there is no pactl, and never calls', async () => {
    const logger = { ...silentLogger, info: vi.fn() };
    const plugged = vi.fn();
    const watch = watchHeadset({ onPlugged: plugged, logger, command: '/nonexistent/pactl' });
    onTestFinished(() => watch.stop());
    await watch.ready;
    await until(() => logger.info.mock.calls.length > 0, { timeoutMs: 10_000, failure: 'nothing said of the missing pactl' });
    expect(logger.info).toHaveBeenCalledWith(expect.stringContaining('no headset watch'), expect.objectContaining({ event: 'speech.headset_watch_off' }));
    expect(plugged).not.toHaveBeenCalled();
  });
});
