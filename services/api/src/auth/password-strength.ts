import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

/** zxcvbn's "safely unguessable" (about 10^10 guesses): what a back-office password must reach. */
const STRONG_ENOUGH = 3;

let estimator: ZxcvbnFactory | undefined;
/** Built on first use: the dictionaries take a moment to load, and most processes never check a password. */
const strength = () => {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator;
};

/**
 * Why `password` is too easy to guess (zxcvbn's warning and suggestions, as a sentence), or null when it is strong
 * enough.
 */
export function passwordWeakness(password: string): string | null {
  const { score, feedback } = strength().check(password);
  if (score >= STRONG_ENOUGH) return null;
  const advice = [feedback.warning, ...feedback.suggestions].filter(Boolean).join(' ');
  return `is too easy to guess${advice ? `: ${advice}` : ''}`;
}
