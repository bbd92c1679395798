/** The design tokens' colours for pictures drawn on a canvas, which CSS cannot colour itself. */
import { useEffect, useState } from 'react';

/** The colour a token resolves to now, as CSS writes it (light-dark() depends on the theme). */
export function resolveColour(host: HTMLElement, token: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${token})`;
  host.appendChild(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

/** The same, as red, green and blue (0–255); black when the colour cannot be read. */
export function resolveRgb(host: HTMLElement, token: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = (resolveColour(host, token).match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b];
}

/** Changes whenever the app's theme or the system's does, to draw again in the new colours. */
export function useThemeKey(): number {
  const [key, setKey] = useState(0);
  useEffect(() => {
    const bump = () => setKey((k) => k + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributeFilter: ['data-theme'] });
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      media.removeEventListener('change', bump);
    };
  }, []);
  return key;
}
