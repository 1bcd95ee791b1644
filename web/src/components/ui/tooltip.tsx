import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { type ReactNode, useState } from 'react';

/** A tooltip shows after 700 ms of hover; moving to the next trigger within 300 ms shows it at once. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

/**
 * A short label beside its trigger (the trigger is the only child, and keeps its own accessible name).
 * `disabled` keeps the tooltip closed without changing the tree, so the trigger keeps focus when it flips.
 */
export function Tooltip({
  label,
  side = 'right',
  disabled = false,
  children,
}: {
  label: string;
  side?: 'top' | 'right' | 'bottom' | 'left';
  disabled?: boolean;
  children: ReactNode;
}) {
  // Always controlled: radix warns when a tooltip switches between controlled and uncontrolled.
  const [open, setOpen] = useState(false);
  return (
    <TooltipPrimitive.Root open={open && !disabled} onOpenChange={setOpen}>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          side={side}
          sideOffset={6}
          className="z-50 rounded-md bg-foreground px-3 py-1.5 text-xs font-medium text-background shadow-md"
        >
          {label}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
