import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

type Variant = 'primary' | 'outline' | 'ghost' | 'destructive';

/**
 * Focus shows as an outline 2 px outside the button, in the primary colour; round a primary button, whose own fill
 * is that colour, it would read as a slightly bigger button, so its outline takes the text colour of the page.
 * Colours fade on hover, but the outline is there at once: fading in from the button's text colour, it would
 * start out invisible on the dark theme's background.
 */
const variants: Record<Variant, string> = {
  primary: 'bg-primary text-primary-foreground hover:bg-primary/90 focus-visible:outline-foreground',
  outline: 'border border-border bg-background hover:bg-muted',
  ghost: 'hover:bg-muted',
  destructive: 'bg-destructive-solid text-destructive-foreground hover:bg-destructive-solid/90',
};

/** The caller's classes override the defaults they conflict with (`size-8 p-0` on an icon button). */
export const buttonClasses = (variant: Variant = 'primary', className = '') =>
  cn(
    'inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium transition-[color,background-color,border-color] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:pointer-events-none disabled:opacity-50',
    variants[variant],
    className,
  );

export function Button({
  variant = 'primary',
  className,
  type = 'button',
  ...props
}: ComponentProps<'button'> & { variant?: Variant }) {
  return <button type={type} className={buttonClasses(variant, className)} {...props} />;
}

/**
 * A button that says what it is doing while its action runs, and ignores presses until it is done. aria-disabled
 * rather than disabled: a disabled button would drop the keyboard focus it holds.
 */
export function BusyButton({
  busy,
  busyLabel,
  className,
  onClick,
  children,
  ...props
}: ComponentProps<typeof Button> & { busy: boolean; busyLabel: string }) {
  return (
    <Button
      {...props}
      className={cn('aria-disabled:opacity-50', className)}
      aria-disabled={busy}
      onClick={busy ? undefined : onClick}
    >
      {busy ? busyLabel : children}
    </Button>
  );
}
