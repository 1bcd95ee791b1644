import * as DialogPrimitive from '@radix-ui/react-dialog';
import { PanelLeft } from 'lucide-react';
import { type ComponentProps, createContext, type ReactNode, useContext } from 'react';
import { cn } from '@/lib/cn';
import { useSidebar } from './sidebar-state';
import { Tooltip } from './tooltip';

/** True inside the mobile sheet, where the title must be the dialog's title. */
const InSheetContext = createContext(false);

const SIDEBAR_ID = 'sidebar';

/**
 * The navigation column: on desktop a fixed aside of 16rem (w-64) that collapses
 * to 3rem of icons (w-12); on mobile an off-canvas sheet of 18rem (w-72) from the left, a radix dialog (focus
 * trapped, Escape and a click outside close it).
 */
export function Sidebar({ children }: { children: ReactNode }) {
  const { open, openMobile, setOpenMobile, isMobile } = useSidebar();
  if (isMobile) {
    return (
      <DialogPrimitive.Root open={openMobile} onOpenChange={setOpenMobile}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
          <DialogPrimitive.Content
            id={SIDEBAR_ID}
            aria-describedby={undefined}
            data-sidebar-state="expanded"
            className="group/sidebar fixed inset-y-0 left-0 z-50 flex h-full w-72 flex-col border-r border-border bg-card text-card-foreground shadow-lg"
          >
            <InSheetContext.Provider value={true}>{children}</InSheetContext.Provider>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
    );
  }
  return (
    <aside
      id={SIDEBAR_ID}
      data-sidebar-state={open ? 'expanded' : 'collapsed'}
      className="group/sidebar sticky top-0 flex h-svh w-64 shrink-0 flex-col overflow-hidden border-r border-border bg-card text-card-foreground transition-[width] duration-200 data-[sidebar-state=collapsed]:w-12"
    >
      {children}
    </aside>
  );
}

/** The sidebar's heading; in the mobile sheet it also names the dialog. */
export function SidebarTitle({ icon, children }: { icon: ReactNode; children: string }) {
  const inSheet = useContext(InSheetContext);
  const Title = inSheet ? DialogPrimitive.Title : 'h2';
  return (
    <div className="flex h-14 shrink-0 items-center gap-2 border-b border-border px-3">
      <span aria-hidden="true" className="flex size-6 shrink-0 items-center justify-center text-primary">
        {icon}
      </span>
      <Title className="truncate text-base font-semibold group-data-[sidebar-state=collapsed]/sidebar:sr-only">
        {children}
      </Title>
    </div>
  );
}

export function SidebarContent({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto p-2', className)} {...props} />
  );
}

export function SidebarFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('mt-auto border-t border-border p-2', className)} {...props} />;
}

/** A labelled group of items, a navigation landmark named by its visible label. */
export function SidebarGroup({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <nav aria-labelledby={id}>
      <div
        id={id}
        className="px-2 pb-1 text-xs font-medium text-muted-foreground group-data-[sidebar-state=collapsed]/sidebar:sr-only"
      >
        {label}
      </div>
      <ul className="flex flex-col gap-1">{children}</ul>
    </nav>
  );
}

/** The classes of an item's link or button: a 2rem row that keeps only its icon when the sidebar is collapsed. */
export const sidebarItemClasses = (active = false) =>
  cn(
    'flex h-8 w-full items-center gap-2 overflow-hidden rounded-md px-2 text-sm text-foreground hover:bg-muted focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary',
    active && 'bg-muted font-medium',
  );

/** The item's text: read by screen readers but not shown when only icons are. */
export function SidebarItemLabel({ children }: { children: string }) {
  return <span className="truncate group-data-[sidebar-state=collapsed]/sidebar:sr-only">{children}</span>;
}

/** One entry; collapsed to its icon, it names itself in a tooltip. */
export function SidebarItem({ label, children }: { label: string; children: ReactNode }) {
  const { open, isMobile } = useSidebar();
  return (
    <li>
      <Tooltip label={label} disabled={open || isMobile}>
        {children}
      </Tooltip>
    </li>
  );
}

/** Opens and closes the sidebar, as Ctrl/Cmd+B does. */
export function SidebarTrigger({ className }: { className?: string }) {
  const { open, openMobile, isMobile, toggle } = useSidebar();
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label="Toggle Sidebar"
      aria-expanded={isMobile ? openMobile : open}
      aria-controls={isMobile && !openMobile ? undefined : SIDEBAR_ID}
      aria-keyshortcuts="Control+B Meta+B"
      title="Toggle Sidebar (Ctrl+B)"
      className={cn(
        'inline-flex size-9 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary',
        className,
      )}
    >
      <PanelLeft aria-hidden="true" className="size-5" />
    </button>
  );
}

/** The column beside the sidebar (a top bar and the main area). */
export function SidebarInset({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex min-w-0 flex-1 flex-col', className)} {...props} />;
}
