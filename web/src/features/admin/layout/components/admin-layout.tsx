import { useQueryClient } from '@tanstack/react-query';
import { Eye } from 'lucide-react';
import type { ReactNode } from 'react';
import { ThemeToggle } from '@/components/theme/theme-toggle';
import { SidebarInset, SidebarTrigger } from '@/components/ui/sidebar';
import { SidebarProvider } from '@/components/ui/sidebar-state';
import { useLiveUpdates } from '@/lib/live-updates';
import { adminStatusQueryKey, useReadOnly } from '../../auth/api/admin-status';
import { AdminSidebar } from './admin-sidebar';

/**
 * The back office's frame: the sidebar, and beside it a top bar (toggle, theme; for auditors a note that nothing
 * here can be changed, which is why no screen offers to) over the screen's content. While it is shown, the
 * screens inside it refresh themselves as the store's read models move.
 */
export function AdminLayout({ children }: { children: ReactNode }) {
  const readOnly = useReadOnly();
  const queryClient = useQueryClient();
  // The session is over: checking it again shows the login screen in place of this frame.
  useLiveUpdates({
    onSignedOut: () => void queryClient.invalidateQueries({ queryKey: adminStatusQueryKey }),
  });
  return (
    <SidebarProvider>
      <AdminSidebar />
      <SidebarInset>
        <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b border-border bg-background/95 px-4 backdrop-blur">
          <SidebarTrigger className="-ml-1" />
          <div className="ml-auto flex items-center gap-3">
            {readOnly && (
              <span className="inline-flex items-center gap-1.5 rounded-full border border-border px-2.5 py-0.5 text-xs font-semibold text-muted-foreground">
                <Eye aria-hidden="true" className="size-3.5" />
                Read-only (auditor)
              </span>
            )}
            <ThemeToggle />
          </div>
        </header>
        <main className="flex flex-1 flex-col gap-6 p-4 md:p-8">{children}</main>
      </SidebarInset>
    </SidebarProvider>
  );
}
