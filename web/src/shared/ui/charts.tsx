/**
 * Charts of the portal (recharts 3). Import this module only from lazily loaded screens (dashboard,
 * device availability): recharts and its d3 parts then land in those screens' chunks, never in the
 * sign-in entry. Each chart is a `<figure>` with a caption (also the SVG's title); recharts' accessibility
 * layer (on by default in v3) lets keyboard users focus the chart and move through its points with the
 * arrow keys, the tooltip reading each value.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatPercent, formatShortDay, SEVERITY_LABELS } from '../lib/format';

/** Colours of the four severities (same hues as the severity badges). */
export const SEVERITY_COLORS = { critical: '#b91c1c', high: '#c2410c', medium: '#a16207', low: '#1d4ed8' } as const;

/** One day of the incident trend: `date` = `YYYY-MM-DD` (UTC), counts per severity. */
export interface TrendPoint {
  date: string;
  critical: number;
  high: number;
  medium: number;
  low: number;
}

/** The severities in stacking order (labels from the catalogue, `SEVERITY_LABELS`). */
const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

function ChartFigure({ caption, height, children }: { caption: string; height: number; children: React.ReactElement }) {
  return (
    <figure className="chart">
      <figcaption className="chart-caption">{caption}</figcaption>
      <div className="chart-box" style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** Stacked bars: incidents opened per day, by severity. */
export function IncidentTrendChart({ points, caption }: { points: readonly TrendPoint[]; caption: string }) {
  return (
    <ChartFigure caption={caption} height={240}>
      <BarChart data={points as TrendPoint[]} title={caption} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tickFormatter={formatShortDay} minTickGap={16} fontSize={12} />
        <YAxis allowDecimals={false} fontSize={12} />
        <Tooltip labelFormatter={(l) => formatShortDay(String(l))} />
        <Legend itemSorter={null} />
        {SEVERITIES.map((s) => (
          <Bar key={s} dataKey={s} name={SEVERITY_LABELS[s]} stackId="sev" fill={SEVERITY_COLORS[s]} isAnimationActive={false} />
        ))}
      </BarChart>
    </ChartFigure>
  );
}

/** One day of availability, % 0–100 (null = not monitored). */
export interface AvailabilityPoint {
  date: string;
  availablePct: number | null;
}

/** Line of daily availability (%) with the SLA target as a dashed reference line. */
export function AvailabilityChart({
  points,
  slaTargetPct,
  caption,
}: {
  points: readonly AvailabilityPoint[];
  slaTargetPct: number | null;
  caption: string;
}) {
  const min = Math.min(slaTargetPct ?? 100, ...points.map((p) => p.availablePct ?? 100));
  const floor = Math.max(0, Math.floor(min - 1));
  return (
    <ChartFigure caption={caption} height={260}>
      <LineChart data={points as AvailabilityPoint[]} title={caption} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tickFormatter={formatShortDay} minTickGap={16} fontSize={12} />
        <YAxis domain={[floor, 100]} tickFormatter={(v: number) => `${v} %`} fontSize={12} width={56} />
        <Tooltip labelFormatter={(l) => formatShortDay(String(l))} formatter={(v) => formatPercent(typeof v === 'number' ? v : null)} />
        {slaTargetPct !== null && (
          <ReferenceLine
            y={slaTargetPct}
            stroke="#b91c1c"
            strokeDasharray="6 4"
            label={{ value: `SLA ${formatPercent(slaTargetPct)}`, position: 'insideBottomRight', fontSize: 12, fill: '#b91c1c' }}
          />
        )}
        <Line type="monotone" dataKey="availablePct" name="Disponibilidad" stroke="#0f766e" dot={false} connectNulls isAnimationActive={false} />
      </LineChart>
    </ChartFigure>
  );
}

/** Horizontal-friendly bars: one value (%) per named item (e.g. 30-day availability per device). */
export function PercentBarChart({
  items,
  caption,
  target,
}: {
  items: readonly { name: string; value: number }[];
  caption: string;
  target?: number;
}) {
  const min = Math.min(target ?? 100, ...items.map((i) => i.value));
  return (
    <ChartFigure caption={caption} height={260}>
      <BarChart data={items as { name: string; value: number }[]} title={caption} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="name" fontSize={10} interval={0} angle={-50} textAnchor="end" height={80} />
        <YAxis domain={[Math.max(0, Math.floor(min - 1)), 100]} tickFormatter={(v: number) => `${v} %`} fontSize={12} width={56} />
        <Tooltip formatter={(v) => formatPercent(typeof v === 'number' ? v : null)} />
        {target !== undefined && <ReferenceLine y={target} stroke="#b91c1c" strokeDasharray="6 4" />}
        <Bar dataKey="value" name="Disponibilidad" fill="#0f766e" isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}
