import { Seo } from '@/components/seo/seo';
import { VerifyScreen } from '@/features/admin/audit-verify/components/verify-screen';

export default function AuditVerifyRoute() {
  return (
    <>
      <Seo
        title="Verify Read Models"
        description="Replay the event log and compare every read model"
        noindex
      />
      <VerifyScreen />
    </>
  );
}
