/** A horizontal bar chart in plain SVG (no chart library: a few bars need no more). Labels are text nodes. */
export function BarChart({ title, data }: { title: string; data: { label: string; value: number }[] }) {
  const max = Math.max(1, ...data.map((d) => d.value));
  const rowHeight = 26;
  const labelWidth = 260;
  const width = 640;
  const height = Math.max(rowHeight, data.length * rowHeight);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      {data.length === 0 ? (
        <p>No data.</p>
      ) : (
        <svg role="img" aria-label={`${title}: ${data.map((d) => `${d.label} ${d.value}`).join(', ')}`} viewBox={`0 0 ${width} ${height}`} width="100%">
          {data.map((d, i) => {
            const barWidth = ((width - labelWidth - 60) * d.value) / max;
            return (
              <g key={d.label} transform={`translate(0 ${i * rowHeight})`}>
                <text x={labelWidth - 8} y={rowHeight / 2 + 5} textAnchor="end" className="chart-label">
                  {d.label.length > 30 ? d.label.slice(0, 29) + '…' : d.label}
                </text>
                <rect x={labelWidth} y={4} width={Math.max(1, barWidth)} height={rowHeight - 8} className="chart-bar" />
                <text x={labelWidth + barWidth + 6} y={rowHeight / 2 + 5} className="chart-label">
                  {d.value}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </figure>
  );
}
