import type { LucideIcon } from 'lucide-react';
import { Button } from './button';

const TONES = {
  plain: 'size-9 p-0',
  destructive: 'size-9 p-0 text-destructive hover:text-destructive',
};

/** A table row's action shown as its icon alone; `label` is its accessible name (Edit …, Delete …). */
export function IconButton({
  icon: Icon,
  label,
  onClick,
  tone = 'plain',
}: {
  icon: LucideIcon;
  label: string;
  onClick: () => void;
  tone?: keyof typeof TONES;
}) {
  return (
    <Button variant="ghost" className={TONES[tone]} aria-label={label} onClick={onClick}>
      <Icon aria-hidden="true" className="size-4" />
    </Button>
  );
}
