import { lazy, Suspense, useState } from 'react';
import { useCartPanelOpen } from '../api/use-cart';

const CartSheet = lazy(() => import('./cart-sheet').then((module) => ({ default: module.CartSheet })));

/**
 * The cart side panel, downloaded the first time it opens: its dialog (focus trap, scroll lock) is not in the first
 * download of a page, which most visits never open. Once loaded it stays mounted, so it opens and closes with its
 * animation from then on.
 */
export function CartPanel() {
  const open = useCartPanelOpen();
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <CartSheet />
    </Suspense>
  );
}
