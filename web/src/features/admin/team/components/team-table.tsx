import type { BackOfficeUserView } from '@licensestore/contract/back-office';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { Columns } from '@/components/ui/data-table';
import { FilterSelect } from '@/components/ui/filter-select';
import { IconButton } from '@/components/ui/icon-button';
import { PagedTable } from '@/components/ui/paged-table';
import { formatDateTime } from '@/lib/date-time';
import { clearFilters, useListSearch } from '@/lib/list-search';
import { useDeleteBackOfficeUser, useTeamPage } from '../api/back-office-users';
import { ROLE_LABELS } from './role-labels';

/** Your own row says it is you. */
const columns = (isYou: (user: BackOfficeUserView) => boolean): Columns<BackOfficeUserView> => [
  {
    header: 'Username',
    className: 'font-medium whitespace-nowrap',
    cell: (user) => (
      <>
        {user.username}
        {isYou(user) && <span className="ml-2 text-sm font-normal text-muted-foreground">(you)</span>}
      </>
    ),
  },
  {
    header: 'Role',
    cell: (user) => (
      <Badge variant={user.role === 'admin' ? 'primary' : 'secondary'}>{ROLE_LABELS[user.role]}</Badge>
    ),
  },
  { header: 'Added', className: 'whitespace-nowrap', cell: (user) => formatDateTime(user.createdAt) },
];

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
  const isYou = (user: BackOfficeUserView) =>
    username !== null && user.username.toLowerCase() === username.toLowerCase();
  return (
    <div className="grid gap-4">
      <FilterSelect
        id="team-filter-role"
        label="Role"
        value={search.params.role ?? ALL_ROLES}
        onValueChange={(role) => search.update({ role: role === ALL_ROLES ? null : role })}
        options={ROLE_OPTIONS}
        className="sm:w-44"
      />
      <PagedTable
        label="Back-office users"
        pagesLabel="Back-office user pages"
        columns={columns(isYou)}
        // Nobody deletes their own account: the store always keeps an admin who can sign in.
        actions={(user) =>
          isYou(user) ? null : (
            <IconButton
              icon={Trash2}
              tone="destructive"
              label={`Delete user ${user.username}`}
              onClick={() => setDeleting(user)}
            />
          )
        }
        query={useTeamPage(search.params)}
        errorTitle="The users could not be loaded"
        emptyText="No users yet."
        noMatchText="No users have this role."
        onClearFilters={clear}
        onPage={search.goTo}
        rowKey={(user) => user.id}
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
