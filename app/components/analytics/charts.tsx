import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatBytes } from "~/lib/format";
import type { DayPoint } from "~/lib/analytics";

export interface Ranked {
  name: string;
  files: number;
  bytes: number;
}

const PRIMARY = "var(--primary)";
const SECONDARY = "oklch(0.65 0.12 230)";
const tickStyle = { fontSize: 12, fill: "var(--muted-foreground)" };
const tooltipStyle = { background: "var(--popover)", border: "1px solid var(--border)", borderRadius: 8, color: "var(--popover-foreground)" };
const shortDay = (day: string) => day.slice(5);
/** Axis ticks: whole units, so labels stay on one line. */
const shortBytes = (v: number) => formatBytes(v, 1);

function ChartCard({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="h-64 w-full" role="img" aria-label={`${title} chart`}>
          {children}
        </div>
      </CardContent>
    </Card>
  );
}

export function UploadsChart({ days }: { days: DayPoint[] }) {
  return (
    <ChartCard title="Uploads per day" description="Files uploaded through the API, webhooks and the portal.">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={days}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={tickStyle} minTickGap={16} />
          <YAxis allowDecimals={false} tick={tickStyle} width={32} />
          <Tooltip contentStyle={tooltipStyle} />
          <Bar isAnimationActive={false} maxBarSize={32} dataKey="uploads" name="Uploads" fill={PRIMARY} radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

export function StoredChart({ days }: { days: DayPoint[] }) {
  return (
    <ChartCard title="Bytes stored" description="Storage taken by your files at the end of each day.">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={days}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={tickStyle} minTickGap={16} />
          <YAxis tickFormatter={shortBytes} tick={tickStyle} width={72} />
          <Tooltip contentStyle={tooltipStyle} formatter={(v) => formatBytes(Number(v))} />
          <Area isAnimationActive={false} type="monotone" dataKey="storedBytes" name="Stored" stroke={PRIMARY} fill={PRIMARY} fillOpacity={0.25} />
        </AreaChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

export function TrafficChart({ days }: { days: DayPoint[] }) {
  return (
    <ChartCard title="Downloads and bandwidth" description="Files served from the CDN path and the API.">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={days}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={tickStyle} minTickGap={16} />
          <YAxis yAxisId="n" allowDecimals={false} tick={tickStyle} width={32} />
          <YAxis yAxisId="b" orientation="right" tickFormatter={shortBytes} tick={tickStyle} width={72} />
          <Tooltip contentStyle={tooltipStyle} formatter={(v, name) => (name === "Bandwidth" ? formatBytes(Number(v)) : v)} />
          <Legend />
          <Bar isAnimationActive={false} maxBarSize={32} yAxisId="n" dataKey="downloads" name="Downloads" fill={PRIMARY} radius={[4, 4, 0, 0]} />
          <Bar isAnimationActive={false} maxBarSize={32} yAxisId="b" dataKey="downloadBytes" name="Bandwidth" fill={SECONDARY} radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

export function RankedChart({ title, description, rows }: { title: string; description: string; rows: Ranked[] }) {
  return (
    <ChartCard title={title} description={description}>
      {rows.length === 0 ? (
        <p className="flex h-full items-center justify-center text-sm text-muted-foreground">Nothing yet</p>
      ) : (
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} layout="vertical" margin={{ left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
            <XAxis type="number" allowDecimals={false} tick={tickStyle} />
            <YAxis type="category" dataKey="name" tick={tickStyle} width={110} />
            <Tooltip contentStyle={tooltipStyle} />
            <Bar isAnimationActive={false} maxBarSize={32} dataKey="files" name="Files" fill={PRIMARY} radius={[0, 4, 4, 0]} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </ChartCard>
  );
}
