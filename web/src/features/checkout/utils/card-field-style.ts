import type { PayPalCardFieldsStyleOptions } from '@paypal/paypal-js';

/** Below Tailwind's sm breakpoint the store's inputs use 16 px text (phones zoom into smaller), 14 px above. */
const SMALL_SCREEN = '(max-width: 639.98px)';

/**
 * PayPal's card fields drawn like the store's own inputs: border, radius, height, font and focus ring, in the
 * colours of the theme shown now. PayPal's fields take concrete values (they cannot read this page's CSS
 * variables), so they are read from the page and the fields are drawn again when the theme changes.
 */
export function cardFieldStyle(): Record<string, PayPalCardFieldsStyleOptions> {
  const root = getComputedStyle(document.documentElement);
  const token = (name: string) => root.getPropertyValue(name).trim();
  const radius = `calc(${token('--radius')} - 2px)`;
  return {
    input: {
      border: `1px solid ${token('--border')}`,
      borderRadius: radius,
      color: token('--foreground'),
      'font-family': root.fontFamily,
      'font-size': window.matchMedia(SMALL_SCREEN).matches ? '16px' : '14px',
      padding: '8px 12px',
      outline: 'none',
    },
    // The store's focus ring: 2 px of the primary colour, 2 px off the field.
    ':focus': {
      boxShadow: `0 0 0 2px ${token('--background')}, 0 0 0 4px ${token('--primary')}`,
    },
  };
}
