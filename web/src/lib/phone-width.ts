import { useSyncExternalStore } from 'react';

/** Narrower than 768 px is a phone: the sidebar becomes a sheet and lists become cards. */
const PHONE_QUERY = '(max-width: 767.98px)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isPhoneNow = () => window.matchMedia(PHONE_QUERY).matches;

/** Whether the window is phone-wide now; re-renders when it crosses 768 px (a turned phone, a resized window). */
export const usePhoneWidth = (): boolean => useSyncExternalStore(subscribe, isPhoneNow);
