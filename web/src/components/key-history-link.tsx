import { History } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';

/** The link to a license key's custody history (imported, assigned, delivered, each reveal). */
export function KeyHistoryLink({ keyId, name }: { keyId: string; name: string }) {
  return (
    <Link
      href={`/admin/license-keys/${keyId}`}
      aria-label={`History of ${name}`}
      className={buttonClasses('ghost', 'size-9 shrink-0 p-0')}
    >
      <History aria-hidden="true" className="size-4" />
    </Link>
  );
}
