/**
 * The load bench's baseline: a bare Express app (its defaults, nothing else) answering each path with bytes it holds
 * in memory, the very bodies the store answered once before. What the store's endpoints are compared with: the
 * same answers with no work behind them.
 *
 *   PORT=… BASELINE_ANSWERS=answers.json node --import tsx bench/support/baseline-server.ts
 */
import { readFileSync } from 'node:fs';
import express from 'express';

/** One path's answer, as the bench writes it to BASELINE_ANSWERS. */
export interface BaselineAnswer {
  path: string;
  contentType: string;
  /** The body, base64. */
  body: string;
}

const answers = JSON.parse(readFileSync(process.env.BASELINE_ANSWERS ?? '', 'utf8')) as BaselineAnswer[];
const app = express();
for (const answer of answers) {
  const body = Buffer.from(answer.body, 'base64');
  app.get(answer.path, (_req, res) => {
    res.type(answer.contentType).send(body);
  });
}
app.listen(Number(process.env.PORT), '127.0.0.1');
