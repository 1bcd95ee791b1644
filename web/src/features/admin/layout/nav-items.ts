import {
  History,
  KeyRound,
  LayoutDashboard,
  ListChecks,
  type LucideIcon,
  Package,
  ScrollText,
  ShieldAlert,
  ShieldCheck,
  ShoppingCart,
  UserCog,
  Users,
} from 'lucide-react';

export interface AdminNavItem {
  label: string;
  href: string;
  icon: LucideIcon;
}

/**
 * The sidebar's Management group: Dashboard, Products, Orders, Customers, License Keys, in that order, then the
 * review queue and the risk rules that fill it.
 */
export const ADMIN_NAV_ITEMS: readonly AdminNavItem[] = [
  { label: 'Dashboard', href: '/admin', icon: LayoutDashboard },
  { label: 'Products', href: '/admin/products', icon: Package },
  { label: 'Orders', href: '/admin/orders', icon: ShoppingCart },
  { label: 'Customers', href: '/admin/customers', icon: Users },
  { label: 'License Keys', href: '/admin/license-keys', icon: KeyRound },
  { label: 'Reviews', href: '/admin/reviews', icon: ShieldCheck },
  { label: 'Risk Rules', href: '/admin/risk', icon: ShieldAlert },
];

/** The Audit group, for admins and auditors: the event log (an order's history opens from it), the dashboard as of a
 * moment, and the replay check of the read models. */
export const AUDIT_NAV_ITEMS: readonly AdminNavItem[] = [
  { label: 'Event Log', href: '/admin/audit/events', icon: ScrollText },
  { label: 'Dashboard As Of', href: '/admin/audit/dashboard', icon: History },
  { label: 'Verify Read Models', href: '/admin/audit/verify', icon: ListChecks },
];

/** Back-office users: the admins' own group, which auditors do not see. */
export const TEAM_NAV_ITEM: AdminNavItem = { label: 'Team', href: '/admin/team', icon: UserCog };

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
