// A log-log SVG line chart with a legend: frame time against a parameter, one line per series.
// Used by ignis-bench and by the particle benchmark (bench/chart.mjs). No dependency: the chart is
// a few dozen SVG elements.
const COLORS = [
  '#e6550d',
  '#3182bd',
  '#31a354',
  '#756bb1',
  '#de2d26',
  '#636363',
  '#fd8d3c',
  '#6baed6',
];

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const short = (c) => (c >= 1e6 ? `${c / 1e6}M` : c >= 1e3 ? `${c / 1e3}k` : String(c));

/**
 * `series`: Map of label → [x, y][] (positive numbers). `dashed(label)` draws a series dashed.
 * Returns the SVG text.
 */
export function lineChartSvg({ title, xLabel, yLabel, series, dashed = () => false }) {
  const W = 760;
  const H = 440;
  const m = { l: 70, r: 220, t: 40, b: 50 };
  const points = [...series.values()].flat().filter(([x, y]) => x > 0 && y > 0);
  if (points.length === 0)
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="80"><text x="10" y="40">no measured rows</text></svg>`;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const lx = [Math.log10(Math.min(...xs)) - 0.1, Math.log10(Math.max(...xs)) + 0.1];
  const ly = [Math.floor(Math.log10(Math.min(...ys))), Math.ceil(Math.log10(Math.max(...ys)))];
  if (ly[0] === ly[1]) ly[1]++;
  const px = (x) => m.l + ((Math.log10(x) - lx[0]) / (lx[1] - lx[0])) * (W - m.l - m.r);
  const py = (y) => H - m.b - ((Math.log10(y) - ly[0]) / (ly[1] - ly[0])) * (H - m.t - m.b);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${m.l}" y="22" font-size="14">${esc(title)}</text>`,
  ];
  for (let e = ly[0]; e <= ly[1]; e++) {
    const y = py(10 ** e);
    parts.push(
      `<line x1="${m.l}" x2="${W - m.r}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="${m.l - 8}" y="${y + 4}" text-anchor="end">${10 ** e >= 1 ? 10 ** e : (10 ** e).toFixed(-e)} ms</text>`,
    );
  }
  for (const c of [...new Set(xs)].sort((a, b) => a - b)) {
    const x = px(c);
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${m.t}" y2="${H - m.b}" stroke="#eee"/><text x="${x}" y="${H - m.b + 18}" text-anchor="middle">${short(c)}</text>`,
    );
  }
  parts.push(
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 12}" text-anchor="middle">${esc(xLabel)} (log)</text>`,
  );
  parts.push(
    `<text x="16" y="${(m.t + H - m.b) / 2}" transform="rotate(-90 16 ${(m.t + H - m.b) / 2})" text-anchor="middle">${esc(yLabel)} (log)</text>`,
  );
  let i = 0;
  for (const [key, line] of series) {
    const color = COLORS[i % COLORS.length];
    const dash = dashed(key) ? ' stroke-dasharray="6 4"' : '';
    const sorted = line.filter(([x, y]) => x > 0 && y > 0).sort((a, b) => a[0] - b[0]);
    parts.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${sorted.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const [x, y] of sorted)
      parts.push(
        `<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${color}"/>`,
      );
    const ly2 = m.t + 10 + i * 18;
    parts.push(
      `<line x1="${W - m.r + 14}" x2="${W - m.r + 40}" y1="${ly2}" y2="${ly2}" stroke="${color}" stroke-width="2"${dash}/><text x="${W - m.r + 46}" y="${ly2 + 4}">${esc(key)}</text>`,
    );
    i++;
  }
  parts.push('</svg>');
  return parts.join('\n');
}
