import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { AdminAccess } from '@/features/admin/auth/components/admin-access';
import { AdminLayout } from '@/features/admin/layout/components/admin-layout';
import { AdminLoading } from '@/features/admin/layout/components/admin-loading';
import NotFoundRoute, { type WayBack } from '../not-found';

// The back office is its own set of chunks: a shopper never downloads any of it.
const LoginRoute = lazy(() => import('./login'));
const DashboardRoute = lazy(() => import('./dashboard'));
const ProductsRoute = lazy(() => import('./products'));
const OrdersRoute = lazy(() => import('./orders'));
const OrderRoute = lazy(() => import('./order'));
const CustomersRoute = lazy(() => import('./customers'));
const CustomerRoute = lazy(() => import('./customer'));
const LicenseKeysRoute = lazy(() => import('./license-keys'));
const LicenseKeyRoute = lazy(() => import('./license-key'));
const TeamRoute = lazy(() => import('./team'));
const ReviewsRoute = lazy(() => import('./reviews'));
const RiskRoute = lazy(() => import('./risk'));
const AuditEventsRoute = lazy(() => import('./audit-events'));
const AuditOrderRoute = lazy(() => import('./audit-order'));
const AuditDashboardRoute = lazy(() => import('./audit-dashboard'));
const AuditVerifyRoute = lazy(() => import('./audit-verify'));

/** The paths of the back office's screens; any other path under /admin is its 404 page. */
const ADMIN_SCREENS =
  /^\/admin(?:\/(?:login|products|orders(?:\/[^/]+)?|customers(?:\/[^/]+)?|license-keys(?:\/[^/]+)?|team|reviews|risk|audit\/(?:events|dashboard|verify|orders\/[^/]+)))?\/?$/;

const TO_DASHBOARD: WayBack = { href: '/admin', label: 'Back to Dashboard' };
const TO_LOGIN: WayBack = { href: '/admin', label: 'Go to Admin Login' };

/**
 * Every path under /admin. Visitors who are not admins get the login screen on every screen's path, and the 404
 * page on any other; admins get each screen, and the 404 page with its way back to the dashboard, inside the
 * sidebar layout.
 */
export default function AdminApp() {
  const [location] = useLocation();
  return (
    <AdminAccess
      loginScreen={
        ADMIN_SCREENS.test(location) ? (
          <Suspense fallback={<AdminLoading />}>
            <LoginRoute />
          </Suspense>
        ) : (
          <NotFoundRoute wayBack={TO_LOGIN} />
        )
      }
    >
      <AdminLayout>
        <Suspense fallback={<AdminLoading className="min-h-[50vh]" />}>
          <Switch>
            {/* Already signed in: the login form has nothing to offer. */}
            <Route path="/admin/login">
              <Redirect to="/admin" replace />
            </Route>
            <Route path="/admin" component={DashboardRoute} />
            <Route path="/admin/products" component={ProductsRoute} />
            <Route path="/admin/orders" component={OrdersRoute} />
            <Route path="/admin/orders/:orderId" component={OrderRoute} />
            <Route path="/admin/customers" component={CustomersRoute} />
            <Route path="/admin/customers/:email" component={CustomerRoute} />
            <Route path="/admin/license-keys" component={LicenseKeysRoute} />
            <Route path="/admin/license-keys/:keyId" component={LicenseKeyRoute} />
            <Route path="/admin/team" component={TeamRoute} />
            <Route path="/admin/reviews" component={ReviewsRoute} />
            <Route path="/admin/risk" component={RiskRoute} />
            <Route path="/admin/audit/events" component={AuditEventsRoute} />
            <Route path="/admin/audit/orders/:orderId" component={AuditOrderRoute} />
            <Route path="/admin/audit/dashboard" component={AuditDashboardRoute} />
            <Route path="/admin/audit/verify" component={AuditVerifyRoute} />
            <Route>
              <NotFoundRoute wayBack={TO_DASHBOARD} />
            </Route>
          </Switch>
        </Suspense>
      </AdminLayout>
    </AdminAccess>
  );
}
