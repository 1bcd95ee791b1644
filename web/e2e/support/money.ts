import { displayCents } from '@licensestore/domain/money/display';

/** An amount ("19.99", or dollars as a number) as the store shows it: "$2,027.87". */
export const shownMoney = (amount: string | number): string => displayCents(Math.round(Number(amount) * 100));
