import { lazy } from 'react';
import { MountedOnceWanted } from '@/components/ui/mounted-once-wanted';
import { useCartPanelOpen } from '../api/use-cart';

const CartSheet = lazy(() => import('./cart-sheet').then((module) => ({ default: module.CartSheet })));

/**
 * The cart side panel, downloaded the first time it opens: its dialog (focus trap, scroll lock) is not in the first
 * download of a page, which most visits never open. Once loaded it stays mounted, so it opens and closes with its
 * animation from then on.
 */
export function CartPanel() {
  return (
    <MountedOnceWanted wanted={useCartPanelOpen()}>
      <CartSheet />
    </MountedOnceWanted>
  );
}
