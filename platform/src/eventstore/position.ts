/** Fixed-width decimal parts make positions compare correctly as plain strings (20 digits hold any 64-bit value). */
const WIDTH = 20;

export const encodePosition = (major: bigint | string, minor: bigint | string): string =>
  `${String(major).padStart(WIDTH, '0')}/${String(minor).padStart(WIDTH, '0')}`;

export function decodePosition(position: string): [bigint, bigint] {
  const match = /^(\d{1,20})\/(\d{1,20})$/.exec(position);
  if (!match) throw new Error(`not an event-store position: ${position}`);
  return [BigInt(match[1] as string), BigInt(match[2] as string)];
}
