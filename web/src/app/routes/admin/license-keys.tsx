import { Seo } from '@/components/seo/seo';
import { LicenseKeysScreen } from '@/features/admin/license-keys/components/license-keys-screen';

export default function LicenseKeysRoute() {
  return (
    <>
      <Seo title="License Keys" description="Manage product license keys inventory" noindex />
      <LicenseKeysScreen />
    </>
  );
}
