import { LinkExpired } from '@/features/auth/components/link-expired';

export default function SignInLinkExpiredRoute() {
  return <LinkExpired />;
}
