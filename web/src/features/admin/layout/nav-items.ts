import { KeyRound, LayoutDashboard, type LucideIcon, Package, ShoppingCart, Users } from 'lucide-react';

export interface AdminNavItem {
  label: string;
  href: string;
  icon: LucideIcon;
}

/** The sidebar's Management group, in the order of spec section 2. */
export const ADMIN_NAV_ITEMS: readonly AdminNavItem[] = [
  { label: 'Dashboard', href: '/admin', icon: LayoutDashboard },
  { label: 'Products', href: '/admin/products', icon: Package },
  { label: 'Orders', href: '/admin/orders', icon: ShoppingCart },
  { label: 'Customers', href: '/admin/customers', icon: Users },
  { label: 'License Keys', href: '/admin/license-keys', icon: KeyRound },
];

/**
 * The item's page is showing ('page'), or a page under it (an order under Orders: 'true'). The dashboard at /admin
 * is never "under" anything, or it would light up on every screen.
 */
export function currentness(item: AdminNavItem, location: string): 'page' | 'true' | undefined {
  const path = location.replace(/\/+$/, '') || '/';
  if (path === item.href) return 'page';
  if (item.href !== '/admin' && path.startsWith(`${item.href}/`)) return 'true';
  return undefined;
}
