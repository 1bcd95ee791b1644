import { cn } from '@/lib/cn';
import { Label } from './label';
import { Select, type SelectOption } from './select';

/** One filter of a list's filter bar: a labelled select, full width on a phone and `className` wide beside it. */
export function FilterSelect({
  id,
  label,
  value,
  onValueChange,
  options,
  className,
}: {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  options: SelectOption[];
  /** Its width from the `sm` breakpoint on. */
  className: string;
}) {
  return (
    <div className={cn('grid w-full gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} value={value} onValueChange={onValueChange} options={options} />
    </div>
  );
}
