/**
 * Numbers, dates, relative times, file sizes and durations in the active language, through `Intl`
 * (never hand-made "1 messages" or "MB" strings). Formatters are kept per locale and options.
 */
import { i18n } from './i18n';

const cache = new Map<string, unknown>();

function cached<T>(kind: string, options: object, make: (locale: string) => T): T {
  const locale = i18n.locale;
  const id = `${kind}|${locale}|${JSON.stringify(options)}`;
  let found = cache.get(id) as T | undefined;
  if (!found) {
    found = make(locale);
    cache.set(id, found);
  }
  return found;
}

export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached('n', options, (l) => new Intl.NumberFormat(l, options)).format(value);
}

export function formatDate(
  value: Date | string | number,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): string {
  const date = value instanceof Date ? value : new Date(value);
  return cached('d', options, (l) => new Intl.DateTimeFormat(l, options)).format(date);
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** "3 minutes ago", "in 2 days", "yesterday": the largest unit that fits. */
export function formatRelativeTime(
  value: Date | string | number,
  now: number = Date.now(),
  style: Intl.RelativeTimeFormatStyle = 'long',
): string {
  const at = value instanceof Date ? value.getTime() : new Date(value).getTime();
  let amount = (at - now) / 1000;
  const format = cached(
    'r',
    { style },
    (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto', style }),
  );
  for (const [unit, next] of RELATIVE_STEPS) {
    if (Math.abs(amount) < next) return format.format(Math.round(amount), unit);
    amount /= next;
  }
  return format.format(Math.round(amount), 'year');
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * A size in bytes with the unit that suits it, in powers of 1,000 ("117 bytes", "1.5 MB", "1,5 Mo").
 */
export function formatFileSize(bytes: number): string {
  let value = bytes;
  let index = 0;
  while (Math.abs(value) >= 1000 && index < SIZE_UNITS.length - 1) {
    value /= 1000;
    index += 1;
  }
  const options: Intl.NumberFormatOptions = {
    style: 'unit',
    unit: SIZE_UNITS[index],
    // Bytes in words ("117 bytes", "117 octets"): the short form is "117 byte" in English.
    unitDisplay: index === 0 ? 'long' : 'short',
    maximumFractionDigits: index === 0 ? 0 : 1,
  };
  return formatNumber(value, options);
}

/** A duration: "45 s", "2 min 5 s", "1 h 3 min", units as the language abbreviates them. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const parts: [number, 'hour' | 'minute' | 'second'][] = [
    [Math.floor(seconds / 3600), 'hour'],
    [Math.floor((seconds % 3600) / 60), 'minute'],
    [seconds % 60, 'second'],
  ];
  const shown = parts.filter(([amount]) => amount > 0).slice(0, 2);
  if (shown.length === 0) shown.push([0, 'second']);
  const units = shown.map(([amount, unit]) =>
    formatNumber(amount, { style: 'unit', unit, unitDisplay: 'short' }),
  );
  return cached('l', {}, (l) => new Intl.ListFormat(l, { style: 'narrow', type: 'unit' })).format(
    units,
  );
}

/** Names listed as the language joins them: "a, b, and c", "a, b und c", "a、b和c". */
export function formatList(items: readonly string[]): string {
  return cached(
    'list',
    {},
    (l) => new Intl.ListFormat(l, { style: 'long', type: 'conjunction' }),
  ).format(items);
}
