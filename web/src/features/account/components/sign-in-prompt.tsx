import { LogIn } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { SIGN_IN_URL } from '@/config/sign-in';

export function SignInPrompt() {
  return (
    <section
      aria-labelledby="sign-in-prompt-heading"
      className="flex flex-col items-center rounded-lg border border-border bg-card px-6 py-12 text-center text-card-foreground shadow-sm"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-muted text-primary">
        <LogIn aria-hidden="true" className="size-7" />
      </span>
      <h2 id="sign-in-prompt-heading" className="mt-4 text-xl font-semibold">
        Sign in to see your orders
      </h2>
      <p className="mt-2 max-w-md text-muted-foreground">
        Your orders and license keys are kept with your account. Sign in with the email address you used at
        checkout to see them.
      </p>
      <a href={SIGN_IN_URL} className={buttonClasses('primary', 'mt-6 px-6')}>
        Sign In
      </a>
    </section>
  );
}
