// The particle benchmark's chart: e2e median frame time against particle count, log-log, one line
// per path@backend/draw series (instanced dashed), drawn by the scene kit's line chart.
import { lineChartSvg } from '../scripts/chart.mjs';

export function chartSvg(rows, title) {
  const ok = rows.filter((r) => !r.skipped && r.e2eMs && (r.kind ?? 'particles') === 'particles');
  const series = new Map();
  for (const r of ok) {
    const key = `${r.path}@${r.backend} ${r.drawMode}`;
    if (!series.has(key)) series.set(key, []);
    series.get(key).push([r.count, r.e2eMs.median]);
  }
  return lineChartSvg({
    title,
    xLabel: 'particles',
    yLabel: 'e2e median frame time',
    series,
    dashed: (key) => key.endsWith('instanced'),
  });
}
