import { useParams } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { KeyHistoryScreen } from '@/features/admin/license-keys/components/key-history-screen';

/** /admin/license-keys/:keyId: one license key's custody history. */
export default function LicenseKeyRoute() {
  const { keyId = '' } = useParams<{ keyId: string }>();
  return (
    <>
      <Seo title="License Key History" description="Where a license key went" noindex />
      <KeyHistoryScreen key={keyId} keyId={keyId} />
    </>
  );
}
