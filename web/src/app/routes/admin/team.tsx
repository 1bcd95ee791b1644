import { Seo } from '@/components/seo/seo';
import { TeamScreen } from '@/features/admin/team/components/team-screen';

/** Team: the back-office users (admins and auditors). */
export default function TeamRoute() {
  return (
    <>
      <Seo title="Team" description="Who can sign in to the back office" noindex />
      <TeamScreen />
    </>
  );
}
