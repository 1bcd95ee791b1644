export type Theme = 'light' | 'dark';

/** The same key and rule as the pre-paint script in index.html. */
export const THEME_STORAGE_KEY = 'theme';

/** The theme on the page now: index.html's pre-paint script chose it (the stored choice, else the system's). */
export const appliedTheme = (): Theme =>
  document.documentElement.classList.contains('dark') ? 'dark' : 'light';

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

export function storeTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage can be unavailable (private mode, quota); the choice then lasts for this page only.
  }
}
