import { SignInLinkForm } from '@/features/auth/components/sign-in-link-form';

/** Sign in: the email address, then a one-time link by email. */
export default function SignInRoute() {
  return (
    <SignInLinkForm
      title="Sign in"
      description={
        <p>
          Enter the email address you use at checkout. We will email you a link that signs you in; no password
          needed.
        </p>
      }
    />
  );
}
