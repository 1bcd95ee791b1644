import { SignInLinkForm } from '@/features/auth/components/sign-in-link-form';

/** Sign up: there is no separate registration, and the page says so before offering the same form. */
export default function SignUpRoute() {
  return (
    <SignInLinkForm
      title="Sign up"
      heading="Create your account"
      description={
        <>
          <p>
            There is no separate sign-up here: your account is made the first time you sign in with your email
            address. No password, nothing else to fill in.
          </p>
          <p>
            Enter the address you buy with. We will email you a link; open it and you are signed in, with your
            orders and license keys under My Orders.
          </p>
        </>
      }
    />
  );
}
