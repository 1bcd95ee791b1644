/** One figure a benchmark prints; with a target, it counts towards the run's summary. */
export interface Figure {
  label: string;
  value: string;
  target?: { text: string; met: boolean };
}

/**
 * Prints each figure on its own line, a target's verdict beside it, and counts the targets: `summary` is the run's
 * last line, `<bench>: N of M targets met`, and `allMet` whether it may exit 0.
 */
export function figureReport(bench: string) {
  let met = 0;
  let targets = 0;
  return {
    report(figure: Figure): void {
      const verdict = figure.target
        ? `  [${figure.target.met ? 'met' : 'NOT met'}: ${figure.target.text}]`
        : '';
      console.log(`${figure.label}: ${figure.value}${verdict}`);
      if (!figure.target) return;
      targets++;
      if (figure.target.met) met++;
    },
    summary: () => `${bench}: ${met} of ${targets} targets met`,
    allMet: () => met === targets,
  };
}
