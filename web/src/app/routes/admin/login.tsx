import { Seo } from '@/components/seo/seo';
import { AdminLoginForm } from '@/features/admin/auth/components/admin-login-form';

/** Admin login; also what a visitor who is not an admin sees on any admin path. */
export default function AdminLoginRoute() {
  return (
    <div className="flex min-h-svh items-center justify-center bg-muted/40 px-4 py-12">
      <Seo title="Admin Login" description="Sign in to the LicenseStore back office." noindex />
      <AdminLoginForm />
    </div>
  );
}
