import type { BackOfficeUserView } from '@licensestore/shared/back-office';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { QueryTable } from '@/components/ui/query-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { useBackOfficeUsers, useDeleteBackOfficeUser } from '../api/back-office-users';
import { ROLE_LABELS } from './role-labels';

const COLUMNS = ['Username', 'Role', 'Added', 'Actions'];

function UserRow({
  user,
  isYou,
  onDelete,
}: {
  user: BackOfficeUserView;
  isYou: boolean;
  onDelete: (user: BackOfficeUserView) => void;
}) {
  return (
    <TableRow>
      <TableCell className="font-medium whitespace-nowrap">
        {user.username}
        {isYou && <span className="ml-2 text-sm font-normal text-muted-foreground">(you)</span>}
      </TableCell>
      <TableCell>
        <Badge variant={user.role === 'admin' ? 'primary' : 'secondary'}>{ROLE_LABELS[user.role]}</Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap">{new Date(user.createdAt).toLocaleDateString()}</TableCell>
      <TableCell>
        {/* Nobody deletes their own account: the store always keeps an admin who can sign in. */}
        <div className="flex h-9 items-center">
          {!isYou && (
            <Button
              variant="ghost"
              className="size-9 p-0 text-destructive hover:text-destructive"
              aria-label={`Delete user ${user.username}`}
              onClick={() => onDelete(user)}
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          )}
        </div>
      </TableCell>
    </TableRow>
  );
}

/** Everyone who may sign in to the back office, the first admin first, each but yourself deletable. */
export function TeamTable({ username }: { username: string | null }) {
  const [deleting, setDeleting] = useState<BackOfficeUserView | null>(null);
  const remove = useDeleteBackOfficeUser();
  return (
    <>
      <QueryTable
        label="Back-office users"
        columns={COLUMNS}
        query={useBackOfficeUsers()}
        errorTitle="The users could not be loaded"
        emptyText="No users yet."
        renderRow={(user) => (
          <UserRow
            key={user.id}
            user={user}
            isYou={username !== null && user.username.toLowerCase() === username.toLowerCase()}
            onDelete={setDeleting}
          />
        )}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? `Delete ${deleting.username}?` : 'Delete user?'}
        description="They are signed out at once and can no longer sign in."
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
