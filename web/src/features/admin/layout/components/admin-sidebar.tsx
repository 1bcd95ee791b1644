import { LogOut, ShieldCheck } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarItem,
  SidebarItemLabel,
  SidebarTitle,
  sidebarItemClasses,
} from '@/components/ui/sidebar';
import { useSidebar } from '@/components/ui/sidebar-state';
import { useAdminLogout } from '../../auth/api/admin-logout';
import { useReadOnly } from '../../auth/api/admin-status';
import {
  ADMIN_NAV_ITEMS,
  type AdminNavItem,
  AUDIT_NAV_ITEMS,
  currentness,
  TEAM_NAV_ITEM,
} from '../nav-items';

function NavLink({ item, location }: { item: AdminNavItem; location: string }) {
  const current = currentness(item, location);
  return (
    <SidebarItem label={item.label}>
      <Link href={item.href} aria-current={current} className={sidebarItemClasses(Boolean(current))}>
        <item.icon aria-hidden="true" className="size-4 shrink-0" />
        <SidebarItemLabel>{item.label}</SidebarItemLabel>
      </Link>
    </SidebarItem>
  );
}

/** 'Admin Panel': the Management links and Logout. */
export function AdminSidebar() {
  const [location] = useLocation();
  const { setOpenMobile } = useSidebar();
  const logout = useAdminLogout();
  const readOnly = useReadOnly();

  // On a phone the sheet covers the page: following a link closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on location change only
  useEffect(() => setOpenMobile(false), [location, setOpenMobile]);

  return (
    <Sidebar>
      <SidebarTitle icon={<ShieldCheck className="size-5" />}>Admin Panel</SidebarTitle>
      <SidebarContent>
        <SidebarGroup id="admin-sidebar-management" label="Management">
          {ADMIN_NAV_ITEMS.map((item) => (
            <NavLink key={item.href} item={item} location={location} />
          ))}
        </SidebarGroup>
        <SidebarGroup id="admin-sidebar-audit" label="Audit">
          {AUDIT_NAV_ITEMS.map((item) => (
            <NavLink key={item.href} item={item} location={location} />
          ))}
        </SidebarGroup>
        {!readOnly && (
          <SidebarGroup id="admin-sidebar-access" label="Access">
            <NavLink item={TEAM_NAV_ITEM} location={location} />
          </SidebarGroup>
        )}
      </SidebarContent>
      <SidebarFooter>
        <ul>
          <SidebarItem label="Logout">
            <button
              type="button"
              onClick={() => {
                if (!logout.isPending) logout.mutate();
              }}
              aria-disabled={logout.isPending}
              className={sidebarItemClasses()}
            >
              <LogOut aria-hidden="true" className="size-4 shrink-0" />
              <SidebarItemLabel>Logout</SidebarItemLabel>
            </button>
          </SidebarItem>
        </ul>
      </SidebarFooter>
    </Sidebar>
  );
}
