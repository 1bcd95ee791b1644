import { lazy } from 'react';
import { Route, Switch } from 'wouter';

// The back office is its own set of chunks: a shopper never downloads any of it.
const LoginRoute = lazy(() => import('./login'));
const DashboardRoute = lazy(() => import('./dashboard'));
const ProductsRoute = lazy(() => import('./products'));
const OrdersRoute = lazy(() => import('./orders'));
const OrderRoute = lazy(() => import('./order'));
const CustomersRoute = lazy(() => import('./customers'));
const LicenseKeysRoute = lazy(() => import('./license-keys'));

/** Every admin screen; the router sends only these paths here (any other /admin path is the 404 page). */
export default function AdminApp() {
  return (
    <Switch>
      <Route path="/admin/login" component={LoginRoute} />
      <Route path="/admin" component={DashboardRoute} />
      <Route path="/admin/products" component={ProductsRoute} />
      <Route path="/admin/orders" component={OrdersRoute} />
      <Route path="/admin/orders/:orderId" component={OrderRoute} />
      <Route path="/admin/customers" component={CustomersRoute} />
      <Route path="/admin/license-keys" component={LicenseKeysRoute} />
    </Switch>
  );
}
