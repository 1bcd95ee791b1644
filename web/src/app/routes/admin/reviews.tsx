import { Seo } from '@/components/seo/seo';
import { ReviewsScreen } from '@/features/admin/risk/components/reviews-screen';

/** Reviews: the orders the risk rules hold, to approve or reject. */
export default function ReviewsRoute() {
  return (
    <>
      <Seo title="Reviews" description="Approve or reject the orders the risk rules hold" noindex />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Reviews</h1>
        <p className="text-muted-foreground">Approve or reject the orders the risk rules hold</p>
      </div>
      <ReviewsScreen />
    </>
  );
}
