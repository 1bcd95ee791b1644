import type { ComponentProps } from 'react';

type Variant = 'primary' | 'secondary' | 'sale' | 'outline';

const variants: Record<Variant, string> = {
  primary: 'bg-primary text-primary-foreground',
  secondary: 'bg-muted text-foreground',
  sale: 'bg-sale text-sale-foreground',
  outline: 'border border-border text-foreground',
};

/** A short label (a category, a discount); not interactive. */
export function Badge({
  variant = 'secondary',
  className = '',
  ...props
}: ComponentProps<'span'> & { variant?: Variant }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ${variants[variant]} ${className}`}
      {...props}
    />
  );
}
