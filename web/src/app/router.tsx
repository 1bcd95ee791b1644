import { lazy, Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { StorefrontLayout } from '@/components/layouts/storefront-layout';
import HomeRoute from './routes/home';
import ProductRoute from './routes/product';
import ProductsRoute from './routes/products';

// The public pages arrive drawn by the server and are in the first download, so the browser takes them over as soon
// as its script runs: as chunks of their own, a drawn page would drop clicks until its chunk had arrived too.
// Every other screen is its own chunk: a first visit downloads only the page it lands on.
const CheckoutRoute = lazy(() => import('./routes/checkout'));
const OrderConfirmationRoute = lazy(() => import('./routes/order-confirmation'));
const AccountRoute = lazy(() => import('./routes/account'));
const SignInRoute = lazy(() => import('./routes/sign-in'));
const SignUpRoute = lazy(() => import('./routes/sign-up'));
const SignInLinkExpiredRoute = lazy(() => import('./routes/sign-in-link-expired'));
const SignInConfirmRoute = lazy(() => import('./routes/sign-in-confirm'));
const SignOutRoute = lazy(() => import('./routes/sign-out'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));
const AdminApp = lazy(() => import('./routes/admin/admin-app'));

/**
 * Everything under /admin is the back office's, one route so moving between its screens keeps the admin layout
 * mounted; it answers paths it has no screen for with its own 404 page.
 */
const BACK_OFFICE = /^\/admin(?:\/|$)/;

function RouteFallback() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center" role="status">
      <span className="text-muted-foreground">Loading...</span>
    </div>
  );
}

function Routes() {
  return (
    <Suspense fallback={<RouteFallback />}>
      <Switch>
        <Route path="/" component={HomeRoute} />
        <Route path="/products" component={ProductsRoute} />
        <Route path="/product/:id" component={ProductRoute} />
        <Route path="/checkout" component={CheckoutRoute} />
        <Route path="/order-confirmation/:orderId" component={OrderConfirmationRoute} />
        <Route path="/account" component={AccountRoute} />
        <Route path="/sign-in" component={SignInRoute} />
        <Route path="/sign-up" component={SignUpRoute} />
        <Route path="/sign-in/link-expired" component={SignInLinkExpiredRoute} />
        <Route path="/sign-in/confirm" component={SignInConfirmRoute} />
        <Route path="/sign-out" component={SignOutRoute} />
        <Route path={BACK_OFFICE} component={AdminApp} />
        <Route>
          <NotFoundRoute />
        </Route>
      </Switch>
    </Suspense>
  );
}

/** The public header and footer frame every path except the back office (/admin...). */
export function AppRouter() {
  const [location] = useLocation();
  if (BACK_OFFICE.test(location)) return <Routes />;
  return (
    <StorefrontLayout>
      <Routes />
    </StorefrontLayout>
  );
}
