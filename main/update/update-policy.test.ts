import { describe, expect, it } from 'vitest';
import { channelFileName, compareVersions, installBlocker, retryDelayMs } from './update-policy.std.ts';

describe('update policy', () => {
  it('names the feed file as electron-updater asks for it', () => {
    expect(channelFileName('stable', 'linux', 'x64')).toBe('latest-linux.yml');
    expect(channelFileName('beta', 'linux', 'x64')).toBe('beta-linux.yml');
    expect(channelFileName('stable', 'linux', 'arm64')).toBe('latest-linux-arm64.yml');
    expect(channelFileName('stable', 'win32', 'x64')).toBe('latest.yml');
    expect(channelFileName('beta', 'darwin', 'arm64')).toBe('beta-mac.yml');
  });

  it('backs off from 1 min, doubling, never past the check interval', () => {
    const fourHours = 4 * 60 * 60_000;
    expect([1, 2, 3, 4].map((failures) => retryDelayMs(failures, fourHours))).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(30, fourHours)).toBe(fourHours);
  });

  it('installs only in the window and when idle, a window past midnight included', () => {
    const at = (hours: number, minutes = 0) => new Date(2026, 10, 24, hours, minutes);
    expect(installBlocker({ window: '03:00-05:00', now: at(3), idle: true })).toBeNull();
    expect(installBlocker({ window: '03:00-05:00', now: at(5), idle: true })).toMatch(/window/);
    expect(installBlocker({ window: '03:00-05:00', now: at(4, 59), idle: false })).toMatch(/idle/);
    expect(installBlocker({ window: '23:00-01:00', now: at(0, 30), idle: true })).toBeNull();
  });

  it('orders versions as semver does, a release after its pre-releases', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.2.0', '1.2.0')).toBe(0);
    expect(compareVersions('1.2.0-beta.2', '1.2.0')).toBe(-1);
    expect(compareVersions('1.2.0-beta.10', '1.2.0-beta.9')).toBe(1);
    expect(compareVersions('v2.0.0', '1.99.99')).toBe(1);
  });
});
