import { LogIn } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ApiError } from '@/lib/api';
import { useSignInWithToken } from '../api/sign-in-with-token';
import { AuthCard } from './auth-card';
import { ConfirmButton } from './confirm-button';
import { LinkExpired } from './link-expired';

/** The token the api put in the fragment, where it reaches this script but no server log nor any Referer. */
const tokenInFragment = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

/**
 * A sign-in link opened from another site (a webmail page, a link scanner): nothing happens until the visitor
 * presses the button, so no page elsewhere can sign a browser into somebody else's account, and a scanner that
 * fetches links does not use up the one-time token.
 */
export function ConfirmSignIn() {
  const [token] = useState(tokenInFragment);
  // Read once: the address bar then drops it, so it is neither bookmarked nor shared with the page.
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const signIn = useSignInWithToken();
  const refused = signIn.error instanceof ApiError && signIn.error.status < 500;
  if (!token || refused) return <LinkExpired />;
  return (
    <AuthCard
      title="Sign in"
      heading="Sign in to LicenseStore"
      icon={LogIn}
      description={<p>Press the button to finish signing in with the link from your email.</p>}
    >
      <ConfirmButton
        label="Sign in"
        busyLabel="Signing in..."
        busy={signIn.isPending}
        error={signIn.error}
        onConfirm={() => signIn.mutate(token)}
      />
    </AuthCard>
  );
}
