import type { WhatIfResult } from '@licensestore/domain';

const HEIGHT = 120;
const BAR = 18;
const GAP = 10;

/** A bar of `height` standing on the chart's base line. */
const bar = (x: number, height: number, fill: string) => (
  <rect x={x} y={HEIGHT - height} width={BAR} height={height} className={fill} />
);

/**
 * Orders per month (the lighter bar) and those the draft would have held (the darker one inside it), drawn to one
 * scale; the table beside it carries the same figures for screen readers, so the picture is hidden from them.
 */
export function WhatIfChart({ months }: { months: WhatIfResult['perMonth'] }) {
  const most = Math.max(1, ...months.map((month) => month.orders));
  const height = (count: number) => Math.round((count / most) * HEIGHT);
  const width = months.length * (BAR + GAP) + GAP;
  return (
    <svg
      aria-hidden="true"
      data-testid="what-if-chart"
      viewBox={`0 0 ${width} ${HEIGHT + 20}`}
      className="h-40 w-full max-w-2xl"
      preserveAspectRatio="xMinYMax meet"
    >
      {months.map((month, index) => {
        const x = GAP + index * (BAR + GAP);
        return (
          <g key={month.month}>
            {bar(x, height(month.orders), 'fill-muted')}
            {bar(x, height(month.held), 'fill-primary')}
            <text
              x={x + BAR / 2}
              y={HEIGHT + 14}
              textAnchor="middle"
              className="fill-muted-foreground text-[8px]"
            >
              {month.month.slice(5)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
