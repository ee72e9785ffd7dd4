import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useCallback, useState, type ReactNode } from 'react';

/** Colours of the charts (contrast ≥ 3:1 on white, as WCAG asks of graphics). */
export const COLORS = {
  rides: '#15803d',
  cancellations: '#b91c1c',
  releasedHolds: '#b45309',
  revenue: '#1d4ed8',
  resident: '#15803d',
  external: '#1d4ed8',
  unserved: '#7c3aed',
} as const;

const AXIS_TEXT = '#475569';
const GRID = '#e2e8f0';

/** The width of the element, followed as it changes (phone rotation, window resize). */
function useWidth(): [(el: HTMLDivElement | null) => void, number] {
  const [width, setWidth] = useState(0);
  const ref = useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export interface Series {
  name: string;
  color: string;
}

export interface BarDatum {
  label: string;
  values: number[];
}

/**
 * Vertical bars, one group per datum (one bar per series), with a light grid and the
 * value scale on the left. `description` is what a screen reader hears for the picture;
 * the numbers themselves are in the table next to it.
 */
export function BarChart({
  data,
  series,
  description,
  format = (n) => String(n),
  height = 190,
}: {
  data: BarDatum[];
  series: Series[];
  description: string;
  format?: (n: number) => string;
  height?: number;
}) {
  const [ref, width] = useWidth();
  const margin = { top: 8, right: 4, bottom: 22, left: 44 };
  const innerW = Math.max(0, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  const max = Math.max(1, ...data.flatMap((d) => d.values));
  const x = scaleBand<string>({ domain: data.map((_, i) => String(i)), range: [0, innerW], padding: 0.2 });
  const inner = scaleBand<number>({ domain: series.map((_, i) => i), range: [0, x.bandwidth()], padding: 0.05 });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerH, 0], nice: true });
  const ticks = y.ticks(3).filter((t) => Number.isInteger(t) || max > 3);
  // A label every `step` bars, so that labels about 34 px wide never overlap.
  const step = Math.max(1, Math.ceil((data.length * 34) / Math.max(1, innerW)));
  return (
    <div ref={ref} className="w-full min-w-0 overflow-hidden">
      {width > 0 && (
        <svg width={width} height={height} role="img" aria-label={description}>
          <Group left={margin.left} top={margin.top}>
            {ticks.map((t) => (
              <g key={t}>
                <line x1={0} x2={innerW} y1={y(t)} y2={y(t)} stroke={GRID} />
                <text x={-6} y={y(t)} dy="0.32em" textAnchor="end" fontSize={11} fill={AXIS_TEXT}>
                  {format(t)}
                </text>
              </g>
            ))}
            {data.map((d, i) =>
              d.values.map((v, s) => {
                const barH = innerH - y(v);
                return (
                  <Bar
                    key={`${i}-${s}`}
                    x={(x(String(i)) ?? 0) + (inner(s) ?? 0)}
                    y={innerH - barH}
                    width={Math.max(1, inner.bandwidth())}
                    height={barH}
                    fill={series[s]!.color}
                    rx={inner.bandwidth() > 6 ? 2 : 0}
                  />
                );
              }),
            )}
            <line x1={0} x2={innerW} y1={innerH} y2={innerH} stroke={AXIS_TEXT} />
            {data.map((d, i) =>
              i % step === 0 ? (
                <text
                  key={i}
                  x={(x(String(i)) ?? 0) + x.bandwidth() / 2}
                  y={innerH + 15}
                  textAnchor="middle"
                  fontSize={11}
                  fill={AXIS_TEXT}
                >
                  {d.label}
                </text>
              ) : null,
            )}
          </Group>
        </svg>
      )}
    </div>
  );
}

/** Horizontal bars, one row per item (the bikes): label on the left, value on the bar's end. */
export function HorizontalBarChart({
  data,
  color,
  description,
  valueText,
}: {
  data: { label: string; value: number }[];
  color: string;
  description: string;
  valueText: (i: number) => string;
}) {
  const [ref, width] = useWidth();
  const row = 24;
  const labelW = 52;
  const valueW = 112;
  const height = data.length * row + 4;
  const innerW = Math.max(0, width - labelW - valueW);
  const max = Math.max(1, ...data.map((d) => d.value));
  const x = scaleLinear<number>({ domain: [0, max], range: [0, innerW] });
  return (
    <div ref={ref} className="w-full min-w-0 overflow-hidden">
      {width > 0 && (
        <svg width={width} height={height} role="img" aria-label={description}>
          {data.map((d, i) => (
            <Group key={d.label} top={i * row + 2}>
              <text x={labelW - 6} y={row / 2} dy="0.32em" textAnchor="end" fontSize={12} fill="#0f172a">
                {d.label}
              </text>
              <Bar x={labelW} y={4} width={Math.max(d.value > 0 ? 2 : 0, x(d.value))} height={row - 8} fill={color} rx={2} />
              <text x={labelW + x(d.value) + 6} y={row / 2} dy="0.32em" fontSize={11} fill={AXIS_TEXT}>
                {valueText(i)}
              </text>
            </Group>
          ))}
        </svg>
      )}
    </div>
  );
}

/** One bar split in parts (residents vs externals), with its legend. */
export function SplitBar({
  parts,
  description,
  legend,
}: {
  parts: { value: number; color: string }[];
  description: string;
  legend: ReactNode;
}) {
  const [ref, width] = useWidth();
  const total = parts.reduce((s, p) => s + p.value, 0);
  const x = scaleLinear<number>({ domain: [0, Math.max(1, total)], range: [0, width] });
  const starts = parts.map((_, i) => parts.slice(0, i).reduce((s, p) => s + p.value, 0));
  return (
    <div className="space-y-2">
      <div ref={ref} className="w-full min-w-0 overflow-hidden">
        {width > 0 && (
          <svg width={width} height={28} role="img" aria-label={description}>
            <rect width={width} height={28} rx={4} fill={GRID} />
            {parts.map((p, i) => (
              <Bar key={i} x={x(starts[i]!)} y={0} width={x(p.value)} height={28} fill={p.color} />
            ))}
          </svg>
        )}
      </div>
      {legend}
    </div>
  );
}
