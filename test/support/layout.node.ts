import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expectAccessible, inWorldOfItsOwn } from './kiosk-journey.node.ts';

export interface Size {
  width: number;
  height: number;
}

/** The panels kiosks are sold with: the two big ones both ways, and the small ones of tablets and laptops turned kiosk. */
export const LAYOUT_SIZES: readonly Size[] = [
  { width: 1080, height: 1920 },
  { width: 1920, height: 1080 },
  { width: 1280, height: 800 },
  { width: 800, height: 1280 },
  { width: 1366, height: 768 },
];

/** The two big panels, portrait and landscape. */
export const ORIENTATIONS: readonly Size[] = LAYOUT_SIZES.slice(0, 2);

export interface LayoutRules {
  /**
   * A control may lie below the fold of a box that scrolls, if scrolling it into view (as moving
   * the focus there does) shows it whole and uncovered: large text needs more room than a screen has.
   */
  scrolling?: boolean;
  /** Every control shows its outline: a border of its own (forced colours draw no backgrounds or shadows). */
  outlined?: boolean;
  /** Every control lies within this band of the screen's height (fractions from the top): the reach band. */
  band?: { top: number; bottom: number };
}

/**
 * What is wrong with the layout the page shows now: every control (button, link, field, focusable
 * element) that is not wholly inside the viewport, or that is not itself at its own centre (covered
 * by another element, or clipped by a scrolling box), and every button whose label is cut off.
 * Behind an open modal, only the modal counts.
 */
export function layoutProblems(page: Page, { scrolling = false, outlined = false, band = { top: 0, bottom: 1 } }: LayoutRules = {}): Promise<string[]> {
  return page.evaluate(({ scrolling, outlined, band }) => {
    const problems: string[] = [];
    const modal = document.querySelector<HTMLElement>('[aria-modal="true"]');
    const scope: ParentNode = modal ?? document;
    const controls = scope.querySelectorAll<HTMLElement>(
      'button, a[href], input:not([type="hidden"]), select, textarea, iframe, [role="button"], [tabindex]:not([tabindex="-1"])',
    );
    const describe = (element: HTMLElement) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
    const wrongWith = (target: HTMLElement): string | null => {
      const box = target.getBoundingClientRect();
      const slack = 0.5;
      const [top, bottom] = [band.top * innerHeight, band.bottom * innerHeight];
      if (box.left < -slack || box.top < top - slack || box.right > innerWidth + slack || box.bottom > bottom + slack) {
        const where = band.top > 0 || band.bottom < 1 ? `the band ${Math.round(top)}-${Math.round(bottom)} of ` : '';
        return `at ${Math.round(box.left)},${Math.round(box.top)}-${Math.round(box.right)},${Math.round(box.bottom)} is outside ${where}${innerWidth}x${innerHeight}`;
      }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit && target.contains(hit) ? null : `is covered at its centre by ${hit ? describe(hit as HTMLElement) : 'nothing'}`;
    };
    const scrollers = () => [...document.querySelectorAll<HTMLElement>('*')].filter((box) => box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY));
    const scrolledAt = new Map(scrollers().map((box) => [box, box.scrollTop]));
    for (const control of controls) {
      // A checkbox is hit through its label, the control the shopper sees (its native box may be hidden).
      const target = control.matches('input[type="checkbox"], input[type="radio"]') ? (control.closest('label') ?? control) : control;
      if (target.closest('.visually-hidden, [inert], [aria-hidden="true"]') || !target.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      let wrong = wrongWith(target);
      if (wrong && scrolling) {
        target.scrollIntoView({ block: 'center', inline: 'nearest' });
        wrong = wrongWith(target);
      }
      const border = getComputedStyle(target.matches('label') ? (target.querySelector('input + *') ?? target) : target);
      const pressable = target.matches('button, input, select, textarea, [role="button"], label');
      if (outlined && pressable && !(border.borderTopStyle !== 'none' && parseFloat(border.borderTopWidth) >= 1)) wrong ??= 'shows no outline';
      if (wrong) problems.push(`${describe(target)} ${wrong}`);
      else if (target.tagName === 'BUTTON' && (target.scrollWidth > target.clientWidth + 1 || target.scrollHeight > target.clientHeight + 1)) {
        problems.push(`${describe(target)} has its label cut off`);
      }
    }
    for (const [box, top] of scrolledAt) box.scrollTop = top;
    return problems;
  }, { scrolling, outlined, band });
}

/**
 * Two frames drawn: a screenshot taken right after a tap can show the frame before it. The frames
 * are counted in a world of their own beside the page's, whose clock (and requestAnimationFrame)
 * a test may hold still.
 */
async function framesDrawn(page: Page): Promise<void> {
  await inWorldOfItsOwn(page, 'frames', (evaluate) => evaluate('new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(() => drawn(true))))'));
}

export interface WalkOptions extends Omit<LayoutRules, 'band'> {
  sizes?: readonly Size[];
  /** The band every control must lie in, at a size (low reach's, which depends on the orientation). */
  bandAt?: (size: Size) => LayoutRules['band'];
  /** axe on the screen too, at the first size: 0 serious or critical. */
  axe?: boolean;
}

/**
 * Shows the page at every size of `sizes`, saves each as `test-results/layout/<set>/<screen>-<w>x<h>.jpg`
 * (JPEG: the walk takes a quarter less time than with PNG; look at them) and returns the layout's problems, each named with its screen and size. The page
 * is left at the size it had.
 */
export async function walkSizes(page: Page, set: string, screen: string, { sizes = LAYOUT_SIZES, axe = false, bandAt, ...rules }: WalkOptions = {}): Promise<string[]> {
  const shown = page.viewportSize()!;
  const dir = path.join('test-results', 'layout', set);
  fs.mkdirSync(dir, { recursive: true });
  const problems: string[] = [];
  for (const [at, size] of sizes.entries()) {
    await page.setViewportSize(size);
    await framesDrawn(page);
    await page.screenshot({ path: path.join(dir, `${screen}-${size.width}x${size.height}.jpg`), quality: 80 });
    for (const problem of await layoutProblems(page, { ...rules, band: bandAt?.(size) })) problems.push(`${set} ${screen} ${size.width}x${size.height}: ${problem}`);
    if (axe && at === 0) await expectAccessible(page, `${set} ${screen}`).catch((error: Error) => problems.push(error.message));
  }
  await page.setViewportSize(shown);
  return problems;
}
