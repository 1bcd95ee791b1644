import type { BackOfficeUserView } from '@licensestore/shared/back-office';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Label } from '@/components/ui/label';
import { PagedTable } from '@/components/ui/paged-table';
import { Select } from '@/components/ui/select';
import { TableCell, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/date-time';
import { clearFilters, useListSearch } from '@/lib/list-search';
import { useDeleteBackOfficeUser, useTeamPage } from '../api/back-office-users';
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
      <TableCell className="whitespace-nowrap">{formatDateTime(user.createdAt)}</TableCell>
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

const ALL_ROLES = 'all';
const ROLE_OPTIONS = [
  { value: ALL_ROLES, label: 'All roles' },
  ...Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label })),
];

/** The filters the team list keeps in the URL (besides the page). */
const TEAM_FILTERS = ['role'] as const;

/**
 * Everyone who may sign in to the back office, the first admin first, a page at a time (role and page in the URL),
 * each but yourself deletable.
 */
export function TeamTable({ username }: { username: string | null }) {
  const [deleting, setDeleting] = useState<BackOfficeUserView | null>(null);
  const remove = useDeleteBackOfficeUser();
  const search = useListSearch();
  const clear = clearFilters(search, TEAM_FILTERS);
  return (
    <div className="grid gap-4">
      <div className="grid w-full gap-1.5 sm:w-44">
        <Label htmlFor="team-filter-role">Role</Label>
        <Select
          id="team-filter-role"
          value={search.params.role ?? ALL_ROLES}
          onValueChange={(role) => search.update({ role: role === ALL_ROLES ? null : role })}
          options={ROLE_OPTIONS}
        />
      </div>
      <PagedTable
        label="Back-office users"
        pagesLabel="Back-office user pages"
        columns={COLUMNS}
        query={useTeamPage(search.params)}
        errorTitle="The users could not be loaded"
        emptyText="No users yet."
        noMatchText="No users have this role."
        onClearFilters={clear}
        onPage={search.goTo}
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
    </div>
  );
}
