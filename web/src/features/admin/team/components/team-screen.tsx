import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useBackOfficeSession } from '../../auth/api/admin-status';
import { AddUserDialog } from './add-user-dialog';
import { TeamTable } from './team-table';

/** Team: who may sign in to the back office, and as what. Admins only; the server refuses auditors too. */
export function TeamScreen() {
  const session = useBackOfficeSession();
  const isAdmin = session?.role === 'admin';
  const [adding, setAdding] = useState(false);
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Team</h1>
          <p className="text-muted-foreground">Who can sign in to the back office: admins and auditors</p>
        </div>
        {isAdmin && (
          <Button onClick={() => setAdding(true)}>
            <UserPlus aria-hidden="true" className="size-4" />
            Add User
          </Button>
        )}
      </div>
      {isAdmin ? (
        <>
          <TeamTable username={session.username} />
          <AddUserDialog open={adding} onClose={() => setAdding(false)} />
        </>
      ) : (
        <p className="rounded-lg border border-border bg-card p-8 text-center text-muted-foreground">
          Only admins manage the team.
        </p>
      )}
    </>
  );
}
