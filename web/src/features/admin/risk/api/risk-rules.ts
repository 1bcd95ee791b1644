import type { RiskRulesRequest, RiskRulesView } from '@licensestore/contract/risk';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answerOf, apiRequest, getJson } from '@/lib/api';
import { toast } from '@/lib/toast';

/** The risk rules in force; the Risk screen's form starts from them. */
export const RISK_RULES_PATH = '/api/admin/risk-rules';

const riskRulesQueryOptions = () =>
  queryOptions({
    queryKey: [RISK_RULES_PATH],
    queryFn: () => getJson<RiskRulesView>(RISK_RULES_PATH, { on401: 'throw' }),
  });

export const useRiskRules = () => useQuery(riskRulesQueryOptions());

/** PUT /api/admin/risk-rules; a refusal (a malformed amount or domain) is shown by the form. */
export function useSaveRiskRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (rules: RiskRulesRequest) =>
      answerOf<RiskRulesView>(await apiRequest('PUT', RISK_RULES_PATH, rules)),
    onSuccess: (view) => {
      queryClient.setQueryData(riskRulesQueryOptions().queryKey, view);
      toast({ title: 'Risk rules saved', description: 'New orders are screened by them from now on.' });
    },
  });
}
