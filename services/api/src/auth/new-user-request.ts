import type { Request, Response } from 'express';
import { parseRequest } from '../http/validation.js';
import { type NewUser, newUserSchema } from './back-office-users.js';

/** Plain names of the Add User form's fields, as its refusals name them. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  username: 'The username',
  password: 'The password',
  role: 'The role',
};

const asSentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * A new back-office user from the request, or null after answering 400 with `{ error, fields }`: each field's
 * refusal in plain words ("The password is too easy to guess: …"), so the form shows it under that field, and the
 * same sentences joined as `error` for any other caller.
 */
export function readNewUser(req: Request, res: Response): NewUser | null {
  const parsed = newUserSchema.safeParse(req.body);
  if (parsed.success) return parsed.data;
  // A field missing or of the wrong type (no JSON object, an unknown shape) is described as every route does it.
  if (parsed.error.issues.some((issue) => issue.code === 'invalid_type'))
    return parseRequest(newUserSchema, req.body);
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    const name = FIELD_NAMES[field];
    if (name && !(field in fields)) fields[field] = asSentence(`${name} ${issue.message}`);
  }
  if (Object.keys(fields).length === 0) return parseRequest(newUserSchema, req.body);
  res.status(400).json({ error: Object.values(fields).join(' '), fields });
  return null;
}
