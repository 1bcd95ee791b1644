import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useReadOnly } from '../../auth/api/admin-status';
import { useRiskRules } from '../api/risk-rules';
import { RiskRulesForm } from './risk-rules-form';

/** Risk: the rules that hold orders for review, with when and by whom they were last changed. */
export function RiskScreen() {
  const rules = useRiskRules();
  const readOnly = useReadOnly();
  if (rules.isPending) return <Skeleton className="h-64 w-full" />;
  if (rules.error) {
    return (
      <LoadError
        title="The risk rules could not be loaded"
        error={rules.error}
        retrying={rules.isFetching}
        onRetry={() => rules.refetch()}
      />
    );
  }
  const { changedAt, changedBy } = rules.data;
  return (
    <section aria-labelledby="risk-rules" className="grid gap-4 rounded-lg border border-border bg-card p-6">
      <div>
        <h2 id="risk-rules" className="text-xl font-semibold">
          Rules
        </h2>
        <p className="text-sm text-muted-foreground">
          {changedAt
            ? `Last changed ${new Date(changedAt).toLocaleString('en-US')} by ${changedBy ?? 'an admin'}.`
            : 'No rule has been set: no order is held.'}
          {readOnly && ' Only admins change them.'}
        </p>
      </div>
      <RiskRulesForm key={changedAt ?? 'defaults'} rules={rules.data.rules} readOnly={readOnly} />
    </section>
  );
}
