import type { NewEvent } from '@licensestore/domain/events';

/**
 * The largest append either store takes: EventStoreDB's default (1 MiB), which refuses anything bigger. Postgres
 * has no such limit, but it keeps this one, so a writer that works on one store works on the other.
 */
export const MAX_APPEND_BYTES = 1024 * 1024;

/** An append over MAX_APPEND_BYTES, refused before anything is stored: split it into several appends. */
export class AppendTooLargeError extends Error {
  constructor(
    readonly stream: string,
    readonly bytes: number,
    readonly limit: number = MAX_APPEND_BYTES,
  ) {
    super(
      `stream ${stream}: an append of ${bytes} bytes is over the ${limit}-byte limit of one append; split it into several appends`,
    );
    this.name = 'AppendTooLargeError';
  }
}

/** The events as a store writes them (data and metadata as JSON), so each is serialized once. */
export interface SerializedEvent {
  event: NewEvent;
  type: string;
  dataJson: string;
  metadataJson: string;
}

/**
 * An append's size as EventStoreDB counts it against its limit: each event's data and metadata in UTF-8, and its
 * type name at two bytes a character.
 */
export const appendBytes = (events: readonly SerializedEvent[]): number =>
  events.reduce(
    (bytes, { type, dataJson, metadataJson }) =>
      bytes + Buffer.byteLength(dataJson) + Buffer.byteLength(metadataJson) + 2 * type.length,
    0,
  );

/** Throws AppendTooLargeError when the events come to more than one append may hold. */
export function refuseOversizedAppend(stream: string, events: readonly SerializedEvent[]): void {
  const bytes = appendBytes(events);
  if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(stream, bytes);
}

export const serialized = (events: readonly NewEvent[]): SerializedEvent[] =>
  events.map((event) => ({
    event,
    type: event.type,
    dataJson: JSON.stringify(event.data),
    metadataJson: JSON.stringify(event.metadata),
  }));
