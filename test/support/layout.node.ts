import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** The panels kiosks are sold with: the two big ones both ways, and the small ones of tablets and laptops turned kiosk. */
export const LAYOUT_SIZES = [
  { width: 1080, height: 1920 },
  { width: 1920, height: 1080 },
  { width: 1280, height: 800 },
  { width: 800, height: 1280 },
  { width: 1366, height: 768 },
] as const;

/**
 * What is wrong with the layout the page shows now: every control (button, link, field, focusable
 * element) that is not wholly inside the viewport, or that is not itself at its own centre (covered
 * by another element, or clipped by a scrolling box). Behind an open modal, only the modal counts.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const modal = document.querySelector<HTMLElement>('[aria-modal="true"]');
    const scope: ParentNode = modal ?? document;
    const controls = scope.querySelectorAll<HTMLElement>(
      'button, a[href], input:not([type="hidden"]), select, textarea, iframe, [role="button"], [tabindex]:not([tabindex="-1"])',
    );
    const describe = (element: HTMLElement) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
    for (const control of controls) {
      // A checkbox is hit through its label, the control the shopper sees (its native box may be hidden).
      const target = control.matches('input[type="checkbox"], input[type="radio"]') ? (control.closest('label') ?? control) : control;
      if (target.closest('.visually-hidden, [inert], [aria-hidden="true"]') || !target.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const slack = 0.5;
      if (box.left < -slack || box.top < -slack || box.right > innerWidth + slack || box.bottom > innerHeight + slack) {
        problems.push(`${describe(target)} at ${Math.round(box.left)},${Math.round(box.top)}-${Math.round(box.right)},${Math.round(box.bottom)} is outside ${innerWidth}x${innerHeight}`);
        continue;
      }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || !target.contains(hit)) {
        problems.push(`${describe(target)} is covered at its centre by ${hit ? describe(hit as HTMLElement) : 'nothing'}`);
      }
    }
    return problems;
  });
}

/**
 * Shows the page at every size of LAYOUT_SIZES, saves each as `test-results/layout/<set>/<screen>-<w>x<h>.png`
 * (look at them) and returns the layout's problems, each named with its screen and size. The page
 * is left at the size it had.
 */
export async function walkSizes(page: Page, set: string, screen: string): Promise<string[]> {
  const shown = page.viewportSize()!;
  const dir = path.join('test-results', 'layout', set);
  fs.mkdirSync(dir, { recursive: true });
  const problems: string[] = [];
  for (const size of LAYOUT_SIZES) {
    await page.setViewportSize(size);
    // The screenshot waits for a frame drawn at the new size (resize observers run before it), and
    // needs no timer of the page's: its clock may stand still.
    await page.screenshot({ path: path.join(dir, `${screen}-${size.width}x${size.height}.png`) });
    for (const problem of await layoutProblems(page)) problems.push(`${set} ${screen} ${size.width}x${size.height}: ${problem}`);
  }
  await page.setViewportSize(shown);
  return problems;
}
