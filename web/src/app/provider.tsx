import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Component, type ErrorInfo, lazy, type ReactNode } from 'react';
import { MountedOnceWanted } from '@/components/ui/mounted-once-wanted';
import { queryClient } from '@/lib/api';
import { useToasts } from '@/lib/toast';

/**
 * Downloaded with the first toast: Radix's toast (its viewport, swipe and dismissal) is not in the first download of
 * a page, which most visits never see a toast on.
 */
const Toaster = lazy(() => import('@/components/ui/toaster').then((module) => ({ default: module.Toaster })));

/** Last line of defence: a render error shows a way out instead of a blank page. */
class AppErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div
        role="alert"
        className="flex min-h-screen flex-col items-center justify-center gap-4 p-4 text-center"
      >
        <h1 className="text-2xl font-bold">Something went wrong</h1>
        <p className="text-muted-foreground">Please reload the page.</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground"
        >
          Reload
        </button>
      </div>
    );
  }
}

/** `client`: the page's own on the server, which renders each request apart; the browser's one otherwise. */
export function AppProvider({
  children,
  client = queryClient,
}: {
  children: ReactNode;
  client?: QueryClient;
}) {
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={client}>
        {children}
        <MountedOnceWanted wanted={useToasts().length > 0}>
          <Toaster />
        </MountedOnceWanted>
      </QueryClientProvider>
    </AppErrorBoundary>
  );
}
