/**
 * Every code a kiosk process ends with (the hosts and kioskctl), so scripts and service managers can
 * rely on them: 2 means the request itself was refused and nothing changed; the start's failures
 * take sysexits' numbers.
 */
export const EXIT = {
  ok: 0,
  failed: 1,
  refused: 2,
  /** EX_TEMPFAIL: another kiosk runs on this data folder; it can start once that one has stopped. */
  alreadyRunning: 75,
  /** EX_CONFIG: the kiosk cannot start as it is set up (a read-only data folder, a corrupt demo state). */
  config: 78,
} as const;
