import { LogOut } from 'lucide-react';
import { useSignOut } from '../api/sign-out';
import { AuthCard, AuthCardLink } from './auth-card';
import { ConfirmButton } from './confirm-button';

/** /api/logout reached from another site: signing out waits for the visitor's own button press. */
export function ConfirmSignOut() {
  const signOut = useSignOut();
  return (
    <AuthCard
      title="Sign out"
      heading="Sign out of LicenseStore?"
      icon={LogOut}
      description={<p>You will need a new link from your email to see your orders again.</p>}
      links={<AuthCardLink href="/account">Stay signed in</AuthCardLink>}
    >
      <ConfirmButton
        label="Sign out"
        busyLabel="Signing out..."
        busy={signOut.isPending}
        error={signOut.error}
        onConfirm={() => signOut.mutate()}
      />
    </AuthCard>
  );
}
