/** A key shown on screen until the admin asks for it: its last 4 characters, as the order timeline masks it. */
export const maskKey = (key: string) => `XXXXX-…-${key.slice(-4)}`;
