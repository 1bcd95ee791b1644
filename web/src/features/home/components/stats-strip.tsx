/** The storefront's static claims, fixed text rather than live figures. */
const STATS = [
  { value: '50,000+', label: 'Happy Customers' },
  { value: '4.8/5', label: 'Average Rating' },
  { value: '5,000+', label: 'Verified Reviews' },
  { value: '15 min', label: 'Average Delivery' },
];

export function StatsStrip() {
  return (
    <section aria-label="Store in numbers" className="border-b border-border bg-card">
      <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-6 px-4 py-8 md:grid-cols-4">
        {STATS.map((stat) => (
          <div key={stat.label} className="flex flex-col-reverse items-center gap-1 text-center">
            <dt className="text-sm text-muted-foreground">{stat.label}</dt>
            <dd className="text-2xl font-extrabold tracking-tight text-primary sm:text-3xl">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
