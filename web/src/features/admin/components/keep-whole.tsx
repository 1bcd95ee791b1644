import { EmailAddress } from './email-address';

/**
 * What a line must never break inside: a masked license key (`XXXX-…-JK12`, whose hyphens a browser would break
 * after), and an email address, which may wrap only before a dot or the @ (a long one is wider than a phone).
 */
const WHOLE = /([A-Za-z0-9]+-…-[A-Za-z0-9]+|[^\s@,;:()<>]+@[^\s@,;:()<>]+)/;
const EMAIL = /@/;

/** A sentence that wraps between words, each masked key kept on one line and each email address whole in parts. */
export function KeepWhole({ text }: { text: string }) {
  return text.split(WHOLE).map((part, index) =>
    // split with one capture group: the odd parts are the matches.
    index % 2 === 1 ? (
      EMAIL.test(part) ? (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
        <EmailAddress key={index} address={part} />
      ) : (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
        <span key={index} className="whitespace-nowrap">
          {part}
        </span>
      )
    ) : (
      part
    ),
  );
}
