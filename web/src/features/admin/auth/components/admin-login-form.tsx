import { LockKeyhole } from 'lucide-react';
import { type FormEvent, useId } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useAdminLogin } from '../api/admin-login';

/** The admin login card: both fields required, the button says so while the sign-in runs. */
export function AdminLoginForm() {
  const login = useAdminLogin();
  const usernameId = useId();
  const passwordId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (login.isPending) return;
    const form = new FormData(event.currentTarget);
    login.mutate({ username: String(form.get('username')), password: String(form.get('password')) });
  };

  return (
    <Card className="w-full max-w-sm">
      <CardHeader className="items-center text-center">
        <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
          <LockKeyhole aria-hidden="true" className="size-6" />
        </span>
        <h1 className="text-2xl font-bold tracking-tight">Admin Login</h1>
        <p className="text-sm text-muted-foreground">Enter your credentials to access the admin panel</p>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor={usernameId}>Username</Label>
            <Input id={usernameId} name="username" autoComplete="username" required />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={passwordId}>Password</Label>
            <Input id={passwordId} name="password" type="password" autoComplete="current-password" required />
          </div>
          {/* aria-disabled rather than disabled: a disabled button would drop the keyboard focus it holds. */}
          <Button type="submit" className="w-full aria-disabled:opacity-50" aria-disabled={login.isPending}>
            {login.isPending ? 'Logging in...' : 'Login'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
