import { useEffect, useId, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { useColorMode } from '../../hooks/use-color-mode';
import { formatCount } from '../../lib/format';

export interface ChartSeries {
  label: string;
  values: readonly number[];
  /** A colour variable that has a value in both colour modes, e.g. "--app-accent". */
  color: string;
}

interface ChartProps {
  /** The chart's accessible name, e.g. "Posts per category". */
  title: string;
  /** One label per point (the x axis), e.g. categories or days. */
  labels: readonly string[];
  series: readonly ChartSeries[];
  kind: 'bars' | 'lines';
  /** The first column's heading in the table of numbers. */
  labelHeading: string;
}

// uPlot (and its stylesheet) in their own chunk: only /admin/insights has charts. Loaded once, from
// the route as the page's code arrives (preloadCharts) or with the first chart; a failed load is
// tried again by the next chart.
let uPlotLoading: Promise<typeof uPlot> | undefined;
const loadUPlot = () => {
  uPlotLoading ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(
    ([m]) => m.default,
    (error: unknown) => {
      uPlotLoading = undefined;
      throw error;
    },
  );
  return uPlotLoading;
};

/** Starts loading the charts' code, while the screen fetches its figures (a failure is the chart's to show). */
export function preloadCharts(): void {
  loadUPlot().catch(() => undefined);
}

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#0d6efd';

/** A uPlot chart named for screen readers, with its numbers as a table under "Show the numbers". */
export function Chart({ title, labels, series, kind, labelHeading }: ChartProps) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  // The colours are read from CSS variables when drawing: a new colour mode draws the chart again.
  const mode = useColorMode();

  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    let plot: uPlot | null = null;
    let stopped = false;
    let observer: ResizeObserver | null = null;
    loadUPlot().then(
      (UPlot) => {
        if (stopped) return;
        const text = cssVar('--bs-body-color');
        const grid = cssVar('--bs-border-color');
        const width = () => Math.max(240, element.clientWidth);
        const labelWidth = Math.max(...labels.map((label) => label.length), 1) * 7 + 16;
        const bars = UPlot.paths.bars?.({ size: [0.6, 48] });
        const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
        plot = new UPlot(
          {
            width: width(),
            height: 220,
            legend: { show: series.length > 1, live: false },
            cursor: { show: true, drag: { x: false, y: false } },
            scales: {
              x: { time: false, range: [-0.5, labels.length - 0.5] },
              y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
            },
            axes: [
              {
                ...axis,
                values: (_u, splits) => splits.map((value) => labels[value] ?? ''),
                // As many labels as fit (about 7 px a character, the longest label's width each), evenly spaced.
                splits: (u) => {
                  const step = Math.max(1, Math.ceil(labels.length / Math.max(2, Math.floor((u.width - 60) / labelWidth))));
                  return labels.map((_label, index) => index).filter((index) => index % step === 0);
                },
              },
              { ...axis, values: (_u, splits) => splits.map((value) => (Number.isInteger(value) ? formatCount(value) : '')) },
            ],
            series: [
              { label: labelHeading, value: (_u, value) => labels[value] ?? '' },
              ...series.map((one) => ({
                label: one.label,
                stroke: cssVar(one.color),
                fill: kind === 'bars' ? cssVar(one.color) : undefined,
                width: kind === 'bars' ? 0 : 2,
                paths: kind === 'bars' ? bars : undefined,
                points: { show: kind === 'lines' && labels.length <= 12 },
              })),
            ],
          },
          [labels.map((_label, index) => index), ...series.map((one) => [...one.values])],
          element,
        );
        observer = new ResizeObserver(() => plot?.setSize({ width: width(), height: 220 }));
        observer.observe(element);
      },
      () => setFailed(true),
    );
    return () => {
      stopped = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [labels, series, kind, labelHeading, mode]);

  return (
    <figure className="app-chart mb-0">
      <div ref={box} className="app-chart-canvas" role="img" aria-label={`${title} (chart; the numbers are in the table below)`} />
      {failed && <p className="small text-body-secondary">The chart could not be drawn; the numbers are below.</p>}
      <details className="app-chart-numbers">
        <summary>
          Show the numbers<span className="visually-hidden"> of {title}</span>
        </summary>
        <div className="table-responsive">
          <table className="app-table" aria-labelledby={`${id}-caption`}>
            <caption id={`${id}-caption`} className="visually-hidden">
              {title}
            </caption>
            <thead>
              <tr>
                <th scope="col">{labelHeading}</th>
                {series.map((one) => (
                  <th key={one.label} scope="col" className="text-end">
                    {one.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, index) => (
                <tr key={label}>
                  <th scope="row" className="fw-normal">
                    {label}
                  </th>
                  {series.map((one) => (
                    <td key={one.label} className="text-end">
                      {formatCount(one.values[index] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
