import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** Asks the store to e-mail a one-time sign-in link; it answers the same for every valid address. */
async function requestSignInLink(email: string): Promise<{ email: string }> {
  const response = await apiRequest('POST', '/api/login', { email });
  return (await response.json()) as { email: string };
}

export function useRequestSignInLink() {
  return useMutation({ mutationFn: requestSignInLink });
}
