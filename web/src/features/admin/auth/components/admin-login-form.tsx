import { ArrowLeft, LockKeyhole } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { BusyButton } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useAdminLogin } from '../api/admin-login';

interface Problems {
  username?: string;
  password?: string;
}

/** Both fields are required: an empty one is named beside it before anything is sent. */
const problemsOf = (username: string, password: string): Problems => ({
  username: username.trim() ? undefined : 'Please enter your username',
  password: password ? undefined : 'Please enter your password',
});

/** The admin login card: both fields required, the button says so while the sign-in runs; a way back to the store. */
export function AdminLoginForm() {
  const login = useAdminLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<Problems>({});

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (login.isPending) return;
    const found = problemsOf(username, password);
    setProblems(found);
    const first = found.username ? 'username' : found.password ? 'password' : null;
    if (first) {
      // Take the keyboard (and a screen reader) to the first thing to fix.
      event.currentTarget.querySelector<HTMLElement>(`#admin-login-${first}`)?.focus();
      return;
    }
    login.mutate({ username, password });
  };

  return (
    <div className="flex w-full max-w-sm flex-col gap-4">
      <Card>
        <CardHeader className="items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <LockKeyhole aria-hidden="true" className="size-6" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight">Admin Login</h1>
          <p className="text-sm text-muted-foreground">Enter your credentials to access the admin panel</p>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            <FormField id="admin-login-username" label="Username" problem={problems.username}>
              {(control) => (
                <Input
                  {...control}
                  name="username"
                  autoComplete="username"
                  value={username}
                  onChange={(event) => {
                    setUsername(event.target.value);
                    setProblems({ ...problems, username: undefined });
                  }}
                  required
                />
              )}
            </FormField>
            <FormField id="admin-login-password" label="Password" problem={problems.password}>
              {(control) => (
                <Input
                  {...control}
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => {
                    setPassword(event.target.value);
                    setProblems({ ...problems, password: undefined });
                  }}
                  required
                />
              )}
            </FormField>
            <BusyButton type="submit" className="w-full" busy={login.isPending} busyLabel="Logging in...">
              Login
            </BusyButton>
          </form>
        </CardContent>
      </Card>
      <Link
        href="/"
        className="inline-flex w-fit items-center gap-2 self-center rounded-sm text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to the store
      </Link>
    </div>
  );
}
