import { ConfirmSignIn } from '@/features/auth/components/confirm-sign-in';

export default function SignInConfirmRoute() {
  return <ConfirmSignIn />;
}
