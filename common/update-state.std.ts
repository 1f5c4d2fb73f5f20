import { z } from 'zod';

/** Which feed file a kiosk follows (`update.channel`): stable reads `latest*.yml`, beta `beta*.yml`. */
export const UpdateChannel = z.enum(['stable', 'beta']);
export type UpdateChannel = z.infer<typeof UpdateChannel>;

export const UPDATE_STATES = ['off', 'idle', 'checking', 'available', 'downloading', 'downloaded', 'installing', 'error'] as const;

/**
 * Where the kiosk's auto-update stands (main/update/update-service.node.ts). The console shows it,
 * the fleet's health carries it, and `kioskctl update status` reads it from update-state.json.
 */
export const UpdateState = z
  .object({
    state: z.enum(UPDATE_STATES),
    /** Why updates are off, or what the kiosk waits for before it installs; null when nothing to say. */
    note: z.string().nullable(),
    currentVersion: z.string(),
    channel: UpdateChannel,
    /** The feed's origin (scheme, host, port): enough to tell feeds apart, nothing more. */
    feedOrigin: z.string().nullable(),
    /** The newer version the feed offers this kiosk (its rollout stage included). */
    availableVersion: z.string().nullable(),
    /** A version downloaded and verified (sha512), waiting for the window and an idle kiosk. */
    downloadedVersion: z.string().nullable(),
    /** Epoch ms of the last check that reached the feed or failed. */
    lastCheckAt: z.number().int().nullable(),
    lastError: z.string().nullable(),
    /** Epoch ms of the next try after a failure (backoff); null when none is planned. */
    retryAt: z.number().int().nullable(),
    /** This version, installed by an update, did not reach the attract screen in time. */
    failedVersion: z.string().nullable(),
  })
  .strict();
export type UpdateState = z.infer<typeof UpdateState>;

/** Where a kiosk stands before its first check (or with updates off): nothing known of any feed yet. */
export function updatesNotChecked(currentVersion: string, channel: UpdateChannel, changes: Partial<UpdateState> = {}): UpdateState {
  return {
    state: 'off',
    note: null,
    currentVersion,
    channel,
    feedOrigin: null,
    availableVersion: null,
    downloadedVersion: null,
    lastCheckAt: null,
    lastError: null,
    retryAt: null,
    failedVersion: null,
    ...changes,
  };
}
