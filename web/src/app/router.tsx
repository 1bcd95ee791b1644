import { lazy, Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { StorefrontLayout } from '@/components/layouts/storefront-layout';

const HomeRoute = lazy(() => import('./routes/home'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));

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
        <Route component={NotFoundRoute} />
      </Switch>
    </Suspense>
  );
}

/** The public header and footer frame every path except the back office (/admin...). */
export function AppRouter() {
  const [location] = useLocation();
  if (location.startsWith('/admin')) return <Routes />;
  return (
    <StorefrontLayout>
      <Routes />
    </StorefrontLayout>
  );
}
