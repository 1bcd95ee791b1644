import { CircleAlert, Package, RotateCw } from 'lucide-react';
import { Link } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { errorSentence } from '@/lib/api';
import { useMyOrders } from '../api/get-my-orders';
import { OrderCard, OrderCardSkeleton } from './order-card';
import { SignInPrompt } from './sign-in-prompt';

/** Three placeholder cards, announced once to screen readers instead of three times. */
export function MyOrdersSkeleton() {
  return (
    <div role="status" aria-label="Loading your orders" className="flex flex-col gap-6">
      <OrderCardSkeleton />
      <OrderCardSkeleton />
      <OrderCardSkeleton />
    </div>
  );
}

function NoOrders() {
  return (
    <div className="flex flex-col items-center rounded-lg border border-border bg-card px-6 py-12 text-center text-card-foreground shadow-sm">
      <Package aria-hidden="true" className="size-12 text-muted-foreground" />
      <h2 className="mt-4 text-xl font-semibold">No orders yet</h2>
      <p className="mt-2 text-muted-foreground">When you make a purchase, your orders will appear here.</p>
      <Link href="/products" className={buttonClasses('outline', 'mt-6')}>
        Browse Products
      </Link>
    </div>
  );
}

function OrdersLoadError({ message, retry }: { message: string; retry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center rounded-lg border border-destructive bg-card px-6 py-12 text-center text-card-foreground shadow-sm"
    >
      <CircleAlert aria-hidden="true" className="size-12 text-destructive" />
      <h2 className="mt-4 text-xl font-semibold">Your orders could not be loaded</h2>
      <p className="mt-2 text-muted-foreground">{message}</p>
      <Button variant="outline" className="mt-6" onClick={retry}>
        <RotateCw aria-hidden="true" className="size-4" />
        Try again
      </Button>
    </div>
  );
}

/** The signed-in customer's orders, newest first, in every state the list can be in. */
export function MyOrders() {
  const { data: orders, isPending, error, refetch } = useMyOrders();
  if (isPending) return <MyOrdersSkeleton />;
  if (error) return <OrdersLoadError message={errorSentence(error)} retry={() => void refetch()} />;
  // The session ended after the page learnt who was signed in.
  if (orders === null) return <SignInPrompt />;
  if (orders.length === 0) return <NoOrders />;
  return (
    <div className="flex flex-col gap-6">
      {orders.map((order) => (
        <OrderCard key={order.id} order={order} />
      ))}
    </div>
  );
}
