const SIZES = { md: { pixels: 48, className: 'size-12' }, lg: { pixels: 64, className: 'size-16' } } as const;

/**
 * A product's picture beside its name in a list: decorative (the name beside it says what it shows), square,
 * cropped rather than stretched, loaded as it scrolls into view.
 */
export function ProductThumbnail({ src, size = 'md' }: { src: string; size?: keyof typeof SIZES }) {
  const { pixels, className } = SIZES[size];
  return (
    <img
      src={src}
      alt=""
      width={pixels}
      height={pixels}
      loading="lazy"
      className={`${className} shrink-0 rounded-md border border-border bg-muted object-cover dark:bg-transparent`}
    />
  );
}
