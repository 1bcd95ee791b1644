import { SignInLinkForm } from '@/features/auth/components/sign-in-link-form';

/** Sign in: the e-mail address, then a one-time link by e-mail. */
export default function SignInRoute() {
  return (
    <SignInLinkForm
      title="Sign in"
      description={
        <p>
          Enter the e-mail address you use at checkout. We will e-mail you a link that signs you in; no
          password needed.
        </p>
      }
    />
  );
}
