import type { SignInLinkSentView } from '@licensestore/contract/customer-auth';
import { useMutation } from '@tanstack/react-query';
import { answerOf, apiRequest } from '@/lib/api';

/** Asks the store to e-mail a one-time sign-in link; it answers the same for every valid address. */
async function requestSignInLink(email: string): Promise<SignInLinkSentView> {
  return answerOf<SignInLinkSentView>(await apiRequest('POST', '/api/login', { email }));
}

export function useRequestSignInLink() {
  return useMutation({ mutationFn: requestSignInLink });
}
