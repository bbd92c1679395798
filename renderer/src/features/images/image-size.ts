/** The checks on a custom `<width>x<height>`, as the relay's spec writes it. */
import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { MAX_IMAGE_SIDE } from '../../../../electron/shared/limits';

export type SizeCheck =
  { ok: true; size: string } | { ok: false; field: 'width' | 'height'; error: string };

function side(value: string, name: 'width' | 'height'): number | string {
  const text = value.trim();
  if (text === '') return t('images.size.missing', { side: name });
  if (!/^\d+$/.test(text)) return t('images.size.notWhole', { side: name });
  const n = Number(text);
  if (n < 1) return t('images.size.tooSmall', { side: name });
  if (n > MAX_IMAGE_SIDE)
    return t('images.size.tooLarge', { side: name, max: formatNumber(MAX_IMAGE_SIDE) });
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
