import { Fragment } from 'react';

/**
 * A license key as text that wraps only between its groups (after a hyphen), never inside one, so a key read off a
 * phone keeps each group whole. The text is the key itself: copying it by hand gives the key.
 */
export function LicenseKeyText({ licenseKey, className = '' }: { licenseKey: string; className?: string }) {
  const groups = licenseKey.split('-');
  return (
    <code className={`font-mono ${className}`}>
      {groups.map((group, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a key's groups are its text, in order; they have no other id
        <Fragment key={index}>
          <span className="whitespace-nowrap">{index < groups.length - 1 ? `${group}-` : group}</span>
          {index < groups.length - 1 && <wbr />}
        </Fragment>
      ))}
    </code>
  );
}
