import { MailCheck, MailWarning } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { BusyButton, Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ApiError, errorSentence } from '@/lib/api';
import { useRequestSignInLink } from '../api/request-sign-in-link';
import { AuthCard } from './auth-card';

/** The answer to a link asked for: the same for every address, so it says "if", never "sent". */
function CheckInbox({ email, onAnotherAddress }: { email: string; onAnotherAddress: () => void }) {
  return (
    <AuthCard
      title="Check your inbox"
      icon={MailCheck}
      description={
        <>
          <p role="status">
            If <strong className="font-semibold text-foreground">{email}</strong> can receive email, a sign-in
            link is on its way to it.
          </p>
          <p>
            Open the link on this device within 15 minutes. It works once. Nothing arrived? Check your spam
            folder, or wait a few minutes and ask again.
          </p>
        </>
      }
    >
      <Button variant="outline" className="w-full" onClick={onAnotherAddress}>
        Use another address
      </Button>
    </AuthCard>
  );
}

/** The mail could not be handed over: nothing about the address, just try again. */
function SendFailed({ reason, onTryAgain }: { reason: string; onTryAgain: () => void }) {
  return (
    <AuthCard
      title="Try again"
      heading="We could not send the email just now"
      icon={MailWarning}
      tone="destructive"
      description={<p role="alert">{reason}</p>}
    >
      <Button className="w-full" onClick={onTryAgain}>
        Try again
      </Button>
    </AuthCard>
  );
}

/**
 * Asks for a one-time sign-in link: the email field, then "check your inbox", or "try again" when the mail
 * server refused. The server decides what an email address is and names the problem beside the field.
 */
export function SignInLinkForm({
  title,
  heading,
  description,
}: {
  title: string;
  heading?: string;
  description: ReactNode;
}) {
  const request = useRequestSignInLink();
  const [email, setEmail] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.isPending) return;
    request.mutate(email, {
      // Take the keyboard (and a screen reader) to the field whose problem is named beside it.
      onError: () => document.getElementById('sign-in-email')?.focus(),
    });
  };

  if (request.isSuccess)
    return <CheckInbox email={request.data.email} onAnotherAddress={() => request.reset()} />;
  const refused = request.error instanceof ApiError && request.error.status < 500 ? request.error : null;
  if (request.error && !refused)
    return <SendFailed reason={errorSentence(request.error)} onTryAgain={() => request.reset()} />;

  return (
    <AuthCard title={title} heading={heading} icon={MailCheck} description={description}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <FormField
          id="sign-in-email"
          label="Email Address"
          problem={refused ? errorSentence(refused) : undefined}
          hint={refused ? undefined : 'The link works once and expires after 15 minutes.'}
        >
          {(control) => (
            <Input
              {...control}
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              maxLength={254}
              required
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                if (refused) request.reset();
              }}
            />
          )}
        </FormField>
        <BusyButton type="submit" className="w-full" busy={request.isPending} busyLabel="Sending...">
          Email me a sign-in link
        </BusyButton>
      </form>
    </AuthCard>
  );
}
