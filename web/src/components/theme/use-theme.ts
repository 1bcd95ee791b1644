import { useCallback, useSyncExternalStore } from 'react';
import { appliedTheme, applyTheme, storeTheme, THEME_STORAGE_KEY, type Theme } from '@/lib/theme';

const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  // A choice made in another tab follows here.
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY && (event.newValue === 'light' || event.newValue === 'dark')) {
      applyTheme(event.newValue);
      changed();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function setTheme(next: Theme) {
  storeTheme(next);
  applyTheme(next);
  changed();
}

/**
 * The theme is the one on the page's root element, which index.html's pre-paint script sets before anything is
 * drawn: the page never shows another. A page drawn on the server cannot know it, so the server and the browser's
 * hydration draw the light theme's toggle, and the browser then re-renders what reads it with the applied one; the
 * page's colours come from the root element's class all along, so only the toggle's icon changes.
 *
 * A hook on a store, not a context: a context's value changing right after hydration would reach the page's
 * content while its code is still loading, and React would then replace the drawn page with its loading fallback.
 */
export function useTheme(): { theme: Theme; setTheme: (theme: Theme) => void; toggleTheme: () => void } {
  const theme = useSyncExternalStore(subscribe, appliedTheme, () => 'light' as const);
  const toggleTheme = useCallback(() => setTheme(theme === 'dark' ? 'light' : 'dark'), [theme]);
  return { theme, setTheme, toggleTheme };
}
