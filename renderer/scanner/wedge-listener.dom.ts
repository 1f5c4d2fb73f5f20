import type { Scan } from '../../common/scan.std.ts';
import { WedgeDetector, type Settlement, type WedgeKey, type WedgeOptions } from './wedge-detector.std.ts';
import { focusedTextField, giveBackText } from './give-back-text.dom.ts';

/**
 * Watches every keydown in `target` before the page sees it and turns keyboard-wedge scanner
 * bursts into `onScan` calls; a person's keys reach the focused field as if typed, `endGapMs`
 * late at most. Works with no field focused (the attract screen). Returns `detach`.
 */
export function attachWedgeListener(
  target: Window,
  options: Partial<WedgeOptions>,
  onScan: (scan: Scan) => void,
): () => void {
  const detector = new WedgeDetector(options);
  let timer: ReturnType<typeof setTimeout> | undefined;

  const apply = (settled: Settlement | null): void => {
    if (settled?.kind === 'scan') onScan({ value: settled.value, source: 'keyboard', at: Date.now() });
    if (settled?.kind === 'release') giveBackText(target.document, settled.keys.join(''));
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    clearTimeout(timer);
    const { settled, key } = detector.feed(toWedgeKey(event));
    apply(settled);
    if (key !== 'pass') {
      event.preventDefault();
      // Not even other window listeners may see a held key: it may be scanner text.
      event.stopImmediatePropagation();
    }
    const deadline = detector.deadline;
    // The timer runs on wall time, the deadline on event time; ticking at the deadline keeps
    // the detector on one clock, and a timer that fires late only delays a release.
    if (deadline !== null) timer = setTimeout(() => apply(detector.tick(deadline)), waitBeforeSettling(detector, target.document) + lateBy(event, target));
  };

  target.addEventListener('keydown', onKeyDown, { capture: true });
  return () => {
    target.removeEventListener('keydown', onKeyDown, { capture: true });
    clearTimeout(timer);
    apply(detector.releaseHeld());
  };
}

/**
 * How long to wait, on the wall clock, for more keys of the held burst. A person's keys go back to
 * the focused field once the end gap has passed. Otherwise waiting costs nothing (with no field
 * focused the keys have nowhere to go; a burst that reads as a scan is no person's) and buys
 * safety: a busy machine can hand a scanner's keys to the page further apart than they were
 * pressed, and settling early would split the code. The keys' own timestamps still decide
 * whether they belong to the burst. A second: a loaded CI machine handed over a scan's first key
 * at once and the rest more than 250 ms later, fresh, so lateBy could not stretch the wait. Only a
 * scanner with no terminator (Enter, Tab) ever waits it out.
 */
const SCAN_SETTLE_MS = 1_000;

function waitBeforeSettling(detector: WedgeDetector, document: Document): number {
  const { endGapMs } = detector.options;
  return detector.holdsScan || !focusedTextField(document) ? Math.max(SCAN_SETTLE_MS, endGapMs) : endGapMs;
}

/** The most a late key adds to the wait: a person's keys are never held longer than this beyond it. */
const MAX_LATE_MS = 5_000;

/**
 * How long ago the key was pressed when the page got it. A machine that hands over keys this late
 * may hand over the next key of the same burst as late again, after the settling wait has passed:
 * a fresh-clone run saw keys pressed 4 ms apart reach the page 300 ms apart, half a second old,
 * and the scan split in two. So the wait is that much longer.
 */
function lateBy(event: KeyboardEvent, target: Window): number {
  return Math.min(MAX_LATE_MS, Math.max(0, target.performance.now() - event.timeStamp));
}

/**
 * `timeStamp` is when the key was pressed, not when the handler ran: a busy renderer delivers
 * queued keys back to back, which must not make a person look like a scanner.
 */
function toWedgeKey(event: KeyboardEvent): WedgeKey {
  // AltGr reports Ctrl+Alt on Windows but types characters (e.g. '@' on a German layout).
  const shortcut = (event.ctrlKey || event.altKey || event.metaKey) && !event.getModifierState('AltGraph');
  return { key: event.key, at: event.timeStamp, fromPerson: shortcut || event.repeat || event.isComposing };
}
