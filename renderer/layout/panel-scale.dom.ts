import { panelScale } from './panel-scale.std.ts';

/** Scales the whole page to the panel (CSS zoom on the root), now and whenever the window changes size. */
export function followPanelSize(window: Window): void {
  const root = window.document.documentElement;
  const apply = () => {
    root.style.zoom = String(panelScale(window.innerWidth, window.innerHeight));
  };
  apply();
  window.addEventListener('resize', apply);
}
