/**
 * What a line must never break inside: a masked license key (`XXXX-…-JK12`, whose hyphens a browser would break
 * after) and an email address.
 */
const WHOLE = /([A-Za-z0-9]+-…-[A-Za-z0-9]+|[^\s@,;:()<>]+@[^\s@,;:()<>]+)/;

/** A sentence that wraps between words, each masked key and email address kept on one line. */
export function KeepWhole({ text }: { text: string }) {
  return text.split(WHOLE).map((part, index) =>
    // split with one capture group: the odd parts are the matches.
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
      <span key={index} className="whitespace-nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}
