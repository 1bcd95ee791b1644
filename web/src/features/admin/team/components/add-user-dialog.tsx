import { MIN_PASSWORD_LENGTH } from '@licensestore/contract/back-office';
import { BACK_OFFICE_ROLES, type BackOfficeRole } from '@licensestore/domain/back-office';
import { type FormEvent, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { ApiError, errorSentence } from '@/lib/api';
import { useAddBackOfficeUser } from '../api/back-office-users';
import { ROLE_LABELS } from './role-labels';

interface Problems {
  username?: string;
  password?: string;
}

const ROLE_OPTIONS = BACK_OFFICE_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** What the server would refuse anyway, named beside its field before anything is sent. */
function problemsOf(username: string, password: string): Problems {
  return {
    username: username.trim() ? undefined : 'Please enter a username',
    password:
      password.length >= MIN_PASSWORD_LENGTH
        ? undefined
        : `The password needs at least ${MIN_PASSWORD_LENGTH} characters`,
  };
}

/** The server's refusals that name a field of this form (a password too easy to guess), by field. */
const serverProblemsOf = (error: Error | null): Problems =>
  error instanceof ApiError ? { username: error.fields.username, password: error.fields.password } : {};

/**
 * Username, a password the new user is told in person, and a role: auditor unless an admin is wanted. A refusal is
 * shown under the field it is about; only one about none of them goes in the box above the buttons.
 */
function AddUserForm({ onDone }: { onDone: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<BackOfficeRole>('auditor');
  const [problems, setProblems] = useState<Problems>({});
  const add = useAddBackOfficeUser();
  const serverProblems = serverProblemsOf(add.error);
  const shown: Problems = {
    username: problems.username ?? serverProblems.username,
    password: problems.password ?? serverProblems.password,
  };
  const generalProblem =
    add.error && !serverProblems.username && !serverProblems.password ? errorSentence(add.error) : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const found = problemsOf(username, password);
    setProblems(found);
    const first = found.username ? 'username' : found.password ? 'password' : null;
    if (first) {
      // Take the keyboard (and a screen reader) to the first thing to fix.
      form.querySelector<HTMLElement>(`#user-${first}`)?.focus();
      return;
    }
    add.mutate(
      { username: username.trim(), password, role },
      {
        onSuccess: onDone,
        onError: (error) => {
          const refused = serverProblemsOf(error);
          const field = refused.username ? 'username' : refused.password ? 'password' : null;
          if (field) form.querySelector<HTMLElement>(`#user-${field}`)?.focus();
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField id="user-username" label="Username *" problem={shown.username}>
        {(control) => (
          <Input
            {...control}
            value={username}
            onChange={(event) => {
              setUsername(event.target.value);
              setProblems({ ...problems, username: undefined });
              add.reset();
            }}
            autoComplete="off"
            spellCheck={false}
            required
          />
        )}
      </FormField>
      <FormField id="user-password" label="Password *" problem={shown.password}>
        {(control) => (
          <Input
            {...control}
            type="password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setProblems({ ...problems, password: undefined });
              add.reset();
            }}
            placeholder={`At least ${MIN_PASSWORD_LENGTH} characters`}
            autoComplete="new-password"
            required
          />
        )}
      </FormField>
      <FormField id="user-role" label="Role *">
        {({ id }) => (
          <Select
            id={id}
            value={role}
            onValueChange={(value) => setRole(value as BackOfficeRole)}
            options={ROLE_OPTIONS}
          />
        )}
      </FormField>
      {generalProblem && <FormAlert>{generalProblem}</FormAlert>}
      <FormActions onCancel={onDone} submitLabel="Add User" busyLabel="Adding..." busy={add.isPending} />
    </form>
  );
}

/** Add User. The form lives only while the dialog is open, so every opening starts blank. */
export function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Add User"
      description="Auditors see every screen but change nothing; admins manage the store and its team."
    >
      <AddUserForm onDone={onClose} />
    </Dialog>
  );
}
