/** One image of at most 10 MB per upload. */
export const MAX_IMAGE_BYTES = 10_485_760;

/** Enough leading bytes to tell every accepted format apart (WebP needs 12). */
export const SNIFF_BYTES = 12;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length &&
  signature.every((byte, index) => bytes[offset + index] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * The image format the leading bytes announce, or null. The name and the declared Content-Type are the
 * uploader's claims; the bytes are what a browser will decode. SVG is refused on purpose: it can carry script.
 */
export function sniffImageType(head: Uint8Array): ImageType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}
