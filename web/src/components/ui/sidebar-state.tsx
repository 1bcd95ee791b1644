import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { usePhoneWidth } from '@/lib/phone-width';
import { TooltipProvider } from './tooltip';

/** The open state outlives the page for 7 days. */
export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;

interface SidebarState {
  /** Desktop: expanded (true) or collapsed to icons. */
  open: boolean;
  /** Mobile: the off-canvas sheet is showing. */
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  isMobile: boolean;
  /** What the toggle button and Ctrl/Cmd+B do: the sheet on mobile, expanded/collapsed otherwise. */
  toggle: () => void;
}

const SidebarContext = createContext<SidebarState | null>(null);

function storedOpen(): boolean {
  const match = document.cookie.match(new RegExp(`(?:^|;\\s*)${SIDEBAR_COOKIE}=(true|false)`));
  return match?.[1] !== 'false';
}

function storeOpen(open: boolean) {
  // biome-ignore lint/suspicious/noDocumentCookie: the open state lives in the cookie sidebar_state for 7 days
  document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; samesite=lax`;
}

const isToggleShortcut = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'b';

/** Holds the sidebar's state for the Sidebar, its trigger and the inset beside it; Ctrl/Cmd+B toggles it. */
export function SidebarProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(storedOpen);
  const [openMobile, setOpenMobile] = useState(false);
  const isMobile = usePhoneWidth();

  const toggle = useCallback(() => {
    if (isMobile) {
      setOpenMobile((current) => !current);
      return;
    }
    storeOpen(!open);
    setOpen(!open);
  }, [isMobile, open]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isToggleShortcut(event)) return;
      // Ctrl+B would otherwise open the browser's bookmarks in some browsers.
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);

  const state = useMemo(
    () => ({ open, openMobile, setOpenMobile, isMobile, toggle }),
    [open, openMobile, isMobile, toggle],
  );
  return (
    <SidebarContext.Provider value={state}>
      <TooltipProvider>
        <div className="flex min-h-svh w-full">{children}</div>
      </TooltipProvider>
    </SidebarContext.Provider>
  );
}

export function useSidebar(): SidebarState {
  const state = useContext(SidebarContext);
  if (!state) throw new Error('useSidebar must be used inside <SidebarProvider>');
  return state;
}
