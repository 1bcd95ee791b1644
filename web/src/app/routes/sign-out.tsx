import { ConfirmSignOut } from '@/features/auth/components/confirm-sign-out';

export default function SignOutRoute() {
  return <ConfirmSignOut />;
}
