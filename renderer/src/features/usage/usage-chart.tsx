/**
 * The usage chart: stacked bars per day, one colour per model, drawn by uPlot (about 50 kB,
 * canvas, no dependencies), loaded only with this screen. The canvas is one focusable element:
 * ← and → (Home, End) move through the days and the day read out below follows, so the chart is
 * usable without a pointer; the same figures are in the tables under it.
 */
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { formatDate } from '../../i18n/format';
import { i18n, useT } from '../../i18n/i18n';
import { resolveColour as resolve, useThemeKey } from '../../lib/theme-colours';
import { OTHER, type ChartData, type Metric } from './usage-data';

export interface UsageChartProps {
  data: ChartData;
  metric: Metric;
  /** Writes a value of the metric: "1.2k", "$0.42". */
  format(value: number): string;
  /** The day pointed at or chosen with the keyboard (an index into data.dates), or null. */
  onDay(index: number | null): void;
  /** What the chart shows, read by screen readers in place of the drawing. */
  label: string;
  /** The name of the series that holds the models not drawn apart. */
  otherLabel: string;
  describedBy: string;
}

const SERIES_COLOURS = [1, 2, 3, 4, 5, 6].map((n) => `--color-chart-${n}`);
const HEIGHT = 260;

const dayStart = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y!, m! - 1, d!).getTime() / 1000;
};

export default function UsageChart({
  data,
  metric,
  format,
  onDay,
  label,
  otherLabel,
  describedBy,
}: UsageChartProps) {
  const t = useT();
  const locale = i18n.locale;
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const chosen = useRef<number | null>(null);
  const themeKey = useThemeKey();
  const onDayRef = useRef(onDay);
  onDayRef.current = onDay;
  const formatRef = useRef(format);
  formatRef.current = format;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const colours = SERIES_COLOURS.map((token) => resolve(element, token));
    const other = resolve(element, '--color-chart-other');
    const muted = resolve(element, '--color-text-muted');
    const grid = resolve(element, '--color-border');
    const xs = data.dates.map(dayStart);
    // uPlot draws in order: the tallest (top of the stack) first, each lower one over it.
    const order = data.series.map((_, i) => i).reverse();
    const bars = uPlot.paths.bars!({ size: [0.7, 48] });
    const axis = {
      stroke: muted,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
      font: '12px system-ui, sans-serif',
    };
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false }, y: false },
      scales: {
        x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] },
      },
      axes: [
        {
          ...axis,
          values: (_u, splits) =>
            splits.map((s) => formatDate(s * 1000, { month: 'short', day: 'numeric' })),
        },
        { ...axis, size: 64, values: (_u, splits) => splits.map((s) => formatRef.current(s)) },
      ],
      series: [
        {},
        ...order.map((i) => {
          const colour =
            i < colours.length && data.series[i]!.label !== OTHER ? colours[i]! : other;
          return {
            label: data.series[i]!.label === OTHER ? otherLabel : data.series[i]!.label,
            stroke: colour,
            fill: colour,
            width: 0,
            paths: bars,
            points: { show: false },
          };
        }),
      ],
      hooks: {
        setCursor: [
          (u) => {
            const idx = u.cursor.idx ?? chosen.current;
            onDayRef.current(idx ?? null);
          },
        ],
      },
    };
    const u = new uPlot(options, [xs, ...order.map((i) => data.stacked[i]!)], element);
    plot.current = u;
    const resize = new ResizeObserver(() =>
      u.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // A new language draws it again: the dates of the axis, and the series' names.
  }, [data, metric, themeKey, otherLabel, locale]);

  function choose(index: number) {
    const u = plot.current;
    const xs = data.dates.map(dayStart);
    const clamped = Math.max(0, Math.min(xs.length - 1, index));
    chosen.current = clamped;
    if (u)
      u.setCursor({
        left: u.valToPos(xs[clamped]!, 'x'),
        top: u.bbox.height / devicePixelRatio / 2,
      });
    onDayRef.current(clamped);
  }

  return (
    <div
      ref={host}
      className="usage-chart"
      tabIndex={0}
      role="img"
      aria-roledescription={t('usage.chart.role')}
      aria-label={t('usage.chart.keys', { label })}
      aria-describedby={describedBy}
      onKeyDown={(event) => {
        const last = data.dates.length - 1;
        const at = chosen.current ?? last;
        const next =
          event.key === 'ArrowLeft'
            ? at - 1
            : event.key === 'ArrowRight'
              ? at + 1
              : event.key === 'Home'
                ? 0
                : event.key === 'End'
                  ? last
                  : undefined;
        if (next === undefined) return;
        event.preventDefault();
        choose(chosen.current === null && event.key.startsWith('Arrow') ? last : next);
      }}
      onBlur={() => {
        chosen.current = null;
      }}
    />
  );
}
