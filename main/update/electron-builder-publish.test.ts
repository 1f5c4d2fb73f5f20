import fs from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

/** electron-builder.yml, parsed by the same YAML parser electron-updater reads its feed with. */
const builderConfig = load(fs.readFileSync('electron-builder.yml', 'utf8')) as {
  publish?: Array<{ provider: string; url: string }>;
  win?: { verifyUpdateCodeSignature?: boolean; signtoolOptions?: { publisherName?: string | string[] } };
};

describe('the packaged kiosk\'s update settings', () => {
  it('publishes a generic feed (latest*.yml and app-update.yml); the kiosk sets the URL from update.feedUrl', () => {
    expect(builderConfig.publish).toEqual([{ provider: 'generic', url: expect.stringMatching(/^https:\/\//) }]);
  });

  it('has Windows installers checked against a named publisher (electron-updater 6 skips the check without one)', () => {
    expect(builderConfig.win?.verifyUpdateCodeSignature).toBe(true);
    expect(builderConfig.win?.signtoolOptions?.publisherName).toEqual(expect.stringMatching(/\S/));
  });
});
