import type { ReactNode } from 'react';

/**
 * Recent orders beside low stock on wide screens, one above the other on narrow ones. The columns are as wide as the
 * screen, never as wide as their longest text: a long e-mail is cut in its row instead of widening the page.
 */
export const DashboardPanels = ({ children }: { children: ReactNode }) => (
  <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">{children}</div>
);
