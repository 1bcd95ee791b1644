import { type ReactNode, Suspense, useState } from 'react';

/**
 * Mounts its children the first time `wanted` is true and keeps them mounted from then on, in a Suspense boundary of
 * their own: for a part of the page whose code is downloaded when it is first needed, not with the page.
 */
export function MountedOnceWanted({ wanted, children }: { wanted: boolean; children: ReactNode }) {
  const [mounted, setMounted] = useState(wanted);
  if (wanted && !mounted) setMounted(true);
  if (!mounted) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
