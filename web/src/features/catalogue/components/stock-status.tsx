/** 'In Stock' or 'Out of Stock', with a coloured dot that repeats what the words say. */
export function StockStatus({ inStock, className = '' }: { inStock: boolean; className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 text-xs font-medium ${inStock ? 'text-success' : 'text-muted-foreground'} ${className}`}
    >
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${inStock ? 'bg-success' : 'bg-destructive'}`}
      />
      {inStock ? 'In Stock' : 'Out of Stock'}
    </span>
  );
}
