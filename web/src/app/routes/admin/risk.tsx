import { Seo } from '@/components/seo/seo';
import { RiskScreen } from '@/features/admin/risk/components/risk-screen';

/** Risk: the rules that hold risky orders for review before their keys are delivered. */
export default function RiskRoute() {
  return (
    <>
      <Seo
        title="Risk Rules"
        description="Hold risky orders for review before their keys are delivered"
        noindex
      />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Risk Rules</h1>
        <p className="text-muted-foreground">Hold risky orders for review before their keys are delivered</p>
      </div>
      <RiskScreen />
    </>
  );
}
