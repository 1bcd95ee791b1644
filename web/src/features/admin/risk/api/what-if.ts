import type { WhatIfRequest } from '@licensestore/contract/risk';
import type { WhatIfResult } from '@licensestore/domain';
import { useMutation } from '@tanstack/react-query';
import { answerOf, apiRequest } from '@/lib/api';

/** POST /api/admin/risk-rules/what-if: the draft against the history (the last twelve months unless a period is named). */
export const useWhatIf = () =>
  useMutation({
    mutationFn: async (request: WhatIfRequest) =>
      answerOf<WhatIfResult>(await apiRequest('POST', '/api/admin/risk-rules/what-if', request)),
  });
