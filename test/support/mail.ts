import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AddressObject, simpleParser } from 'mailparser';

/** A message as its recipient reads it: headers decoded, parts un-encoded (quoted-printable, base64). */
export interface ReadMail {
  from: { name: string; address: string };
  to: string[];
  subject: string;
  text: string;
  html: string;
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) =>
    object.value.map((entry) => entry.address ?? ''),
  );

export async function readMail(raw: string | Buffer): Promise<ReadMail> {
  const parsed = await simpleParser(raw);
  return {
    from: { name: parsed.from?.value[0]?.name ?? '', address: parsed.from?.value[0]?.address ?? '' },
    to: addresses(parsed.to),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
  };
}

/** The messages a mailer without SMTP_URL wrote as `.eml` files into `<dataDir>/mail`, by file name. */
export async function mailFiles(dataDir: string): Promise<Map<string, ReadMail>> {
  const directory = join(dataDir, 'mail');
  const names = (await readdir(directory).catch(() => [] as string[])).filter((name) =>
    name.endsWith('.eml'),
  );
  const mails = await Promise.all(names.map(async (name) => readMail(await readFile(join(directory, name)))));
  return new Map(names.map((name, index) => [name, mails[index] as ReadMail]));
}

const SIGN_IN_LINK = /https?:\/\/\S+\/api\/login\/callback\?token=([\w-]{43})/;

/** The one-time link of a sign-in e-mail, and its token; throws when the message holds none. */
export function signInLinkIn(mail: ReadMail): { url: string; token: string } {
  const match = SIGN_IN_LINK.exec(mail.text);
  if (!match) throw new Error(`no sign-in link in the e-mail "${mail.subject}" to ${mail.to.join(', ')}`);
  return { url: match[0], token: match[1] as string };
}

const ORDER_LINK = /https?:\/\/\S+\/order-confirmation\/([0-9a-f-]{36})#access=([\w-]{43})/;

/** The delivery e-mail's link to the order's page, and the access token in its fragment; throws when it has none. */
export function orderLinkIn(mail: ReadMail): { url: string; orderId: string; token: string } {
  const match = ORDER_LINK.exec(mail.text);
  if (!match) throw new Error(`no order link in the e-mail "${mail.subject}" to ${mail.to.join(', ')}`);
  return { url: match[0], orderId: match[1] as string, token: match[2] as string };
}
