// Storable text: what every stored text field accepts, for the API's schemas and for data from elsewhere (browser-safe).
import { z } from 'zod';

export interface TextField {
  /** The most UTF-16 code units the field keeps, counted after normalisation. */
  max: number;
  /** The fewest; 1 by default (an empty string is refused as "is required"). */
  min?: number;
  /** Several lines allowed: newline and tab are kept (a CR LF or lone CR becomes a newline). */
  multiline?: boolean;
  /** Surrounding white space removed; true by default (false for passwords). */
  trim?: boolean;
  /** Starts each message ("Name is required"); without it a message reads after the field's path ("is required"). */
  label?: string;
}

/**
 * Characters no stored text holds: lone surrogates (Postgres' jsonb refuses them, as it refuses NUL), the C0 controls,
 * DEL and the C1 controls, the Unicode line and paragraph separators (they end a line in JavaScript and in logs
 * while looking like nothing), and the bidirectional overrides and isolates (they make text read in another order
 * than it is stored: a name, a key or a URL that shows one thing and is another).
 */
const NEVER = '\\p{Cs}\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const UNSTORABLE_IN_ONE_LINE = new RegExp(`[${NEVER}\\u0000-\\u000a]`, 'u');
const UNSTORABLE_IN_LINES = new RegExp(`[${NEVER}\\u0000-\\u0008]`, 'u');
const UNSTORABLE_IN_ONE_LINE_ALL = new RegExp(UNSTORABLE_IN_ONE_LINE.source, 'gu');
const UNSTORABLE_IN_LINES_ALL = new RegExp(UNSTORABLE_IN_LINES.source, 'gu');

const codePoint = (character: string) =>
  `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

const unifyLineEnds = (text: string) => text.replace(/\r\n?/g, '\n');

/** The first character `text` may not store (as "U+0000"), or null when every character is storable. */
export function unstorableCharacter(text: string, options: { multiline?: boolean } = {}): string | null {
  const pattern = options.multiline ? UNSTORABLE_IN_LINES : UNSTORABLE_IN_ONE_LINE;
  const found = pattern.exec(options.multiline ? unifyLineEnds(text) : text);
  return found ? codePoint(found[0]) : null;
}

/** NFC, one kind of line end where lines are allowed, trimmed unless told otherwise: what a field stores. */
function normalise(text: string, field: Pick<TextField, 'multiline' | 'trim'>): string {
  const normalised = (field.multiline ? unifyLineEnds(text) : text).normalize('NFC');
  return field.trim === false ? normalised : normalised.trim();
}

/**
 * A zod schema for a stored text field: refuses text with a character it cannot store (see NEVER) with a message a
 * person understands, then stores it NFC-normalised (and trimmed), between `min` and `max` code units long.
 */
export function storableText(field: TextField) {
  const min = field.min ?? 1;
  const say = (message: string) => (field.label ? `${field.label} ${message}` : message);
  return z
    .string()
    .check((context) => {
      const character = unstorableCharacter(context.value, field);
      if (character) {
        context.issues.push({
          code: 'custom',
          input: context.value,
          message: say(`contains a character that cannot be stored (${character})`),
          abort: true,
        });
      }
    })
    .transform((text) => normalise(text, field))
    .pipe(
      z
        .string()
        .min(min, say(min === 1 ? 'is required' : `must be at least ${min} characters`))
        .max(field.max, say(`must be at most ${field.max} characters`)),
    );
}

/**
 * Text from elsewhere that must be stored whatever it holds (a payer's name in PayPal's answer, once the money has
 * moved): unstorable characters become spaces, then it is normalised and cut to `max` without splitting a character.
 */
export function makeStorable(text: string, field: Pick<TextField, 'max' | 'multiline'>): string {
  const pattern = field.multiline ? UNSTORABLE_IN_LINES_ALL : UNSTORABLE_IN_ONE_LINE_ALL;
  const cleaned = normalise((field.multiline ? unifyLineEnds(text) : text).replace(pattern, ' '), field);
  if (cleaned.length <= field.max) return cleaned;
  const cut = cleaned.slice(0, field.max);
  return (/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut).trim();
}
