import { twMerge } from 'tailwind-merge';

/** Joins class lists; on conflicting utilities the later one wins (`px-4` then `px-0` gives `px-0`). */
export const cn = (...classes: Array<string | false | null | undefined>): string =>
  twMerge(classes.filter(Boolean).join(' '));
