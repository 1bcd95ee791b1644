import { LinkIcon } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { AuthCard } from './auth-card';

/** A used, expired, unknown or malformed sign-in link, and the way to a new one. */
export function LinkExpired() {
  return (
    <AuthCard
      title="Link expired"
      heading="This sign-in link has expired or was already used"
      icon={LinkIcon}
      tone="destructive"
      description={
        <p>
          Sign-in links work once and only for 15 minutes. Ask for a new one and open it soon after it
          arrives.
        </p>
      }
    >
      <Link href="/sign-in" className={buttonClasses('primary', 'w-full')}>
        Get a new sign-in link
      </Link>
    </AuthCard>
  );
}
