import PinoPretty from 'pino-pretty';

/**
 * Where `npm start` writes the roles' lines (`label | {json}`). At a terminal each JSON log line is printed for a
 * person to read (time, level, message, fields on one line); piped or redirected, the output stays JSON lines, for
 * the tools and tests that read it.
 */
export function consoleOutput(stream: NodeJS.WriteStream = process.stdout): (line: string) => void {
  if (!stream.isTTY) return (line) => stream.write(`${line}\n`);
  const pretty = PinoPretty.prettyFactory({
    colorize: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'role',
  });
  return (line) => {
    const bar = line.indexOf(' | ');
    const body = line.slice(bar + 3);
    if (bar === -1 || !body.startsWith('{')) {
      stream.write(`${line}\n`);
      return;
    }
    stream.write(`${line.slice(0, bar + 3)}${pretty(body)}`);
  };
}
