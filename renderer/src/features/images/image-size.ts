/** The size presets and the checks on a custom `<width>x<height>`, as the relay's spec writes it. */

export const SIZE_PRESETS = [
  '256x256',
  '512x512',
  '1024x1024',
  '1792x1024',
  '1024x1792',
  '1536x1024',
  '1024x1536',
] as const;

import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';

/** Six digits at most on each side, as main's own check allows. */
const MAX_SIDE = 999_999;

export type SizeCheck =
  { ok: true; size: string } | { ok: false; field: 'width' | 'height'; error: string };

function side(value: string, name: 'width' | 'height'): number | string {
  const text = value.trim();
  if (text === '') return t('images.size.missing', { side: name });
  if (!/^\d+$/.test(text)) return t('images.size.notWhole', { side: name });
  const n = Number(text);
  if (n < 1) return t('images.size.tooSmall', { side: name });
  if (n > MAX_SIDE) return t('images.size.tooLarge', { side: name, max: formatNumber(MAX_SIDE) });
  return n;
}

/** Checks a custom width and height; the answer is the size the relay is sent (`1024x768`). */
export function checkCustomSize(width: string, height: string): SizeCheck {
  const w = side(width, 'width');
  if (typeof w === 'string') return { ok: false, field: 'width', error: w };
  const h = side(height, 'height');
  if (typeof h === 'string') return { ok: false, field: 'height', error: h };
  return { ok: true, size: `${w}x${h}` };
}
