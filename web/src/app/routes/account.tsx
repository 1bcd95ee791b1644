import { Seo } from '@/components/seo/seo';
import { MyOrders, MyOrdersSkeleton } from '@/features/account/components/my-orders';
import { SignInPrompt } from '@/features/account/components/sign-in-prompt';
import { useUser } from '@/features/auth/api/get-user';

/** My Orders: for signed-in customers; everyone else is asked to sign in. */
export default function AccountRoute() {
  const { isAuthenticated, isPending } = useUser();
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 md:py-12">
      <Seo title="My Orders" description="Your orders and license keys." noindex />
      <h1 className="mb-6 text-3xl font-bold tracking-tight">My Orders</h1>
      {isPending ? <MyOrdersSkeleton /> : isAuthenticated ? <MyOrders /> : <SignInPrompt />}
    </div>
  );
}
