import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { KeyValueStore } from 'crawlee';
import { InvalidSnapshotError } from '../errors/invalid-snapshot-error.js';

/** Where an in-memory filter is saved: a Crawlee key-value store record, or a file. */
export type SnapshotTarget = { keyValueStore: KeyValueStore; key?: string } | { file: string };

/** Record key used when none is given. */
export const DEFAULT_SNAPSHOT_KEY = 'BLOOM_DEDUP_FILTER';

/** Header of a snapshot: the filter's parameters and counters. */
export interface SnapshotHeader {
  format: 'crawlee-bloom-dedup/memory@1';
  capacity: number;
  errorRate: number;
  bits: number;
  hashes: number;
  indexScheme: string;
  itemsAdded: number;
  filtered: number;
  bitsSet: number;
}

const MAGIC = Buffer.from('CBDMEM1\n', 'latin1');

/** Describes a target for messages. */
export function describeTarget(target: SnapshotTarget): string {
  return 'file' in target ? `file ${target.file}` : `key-value store record ${target.key ?? DEFAULT_SNAPSHOT_KEY}`;
}

/**
 * Binary snapshot: magic, uint32be header length, JSON header, raw bit array. Raw bytes instead of
 * bloom-filters' base64 JSON, which is 33 % larger and takes seconds per million items.
 */
export function encodeSnapshot(header: SnapshotHeader, bits: Uint8Array): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length, 0);
  return Buffer.concat([MAGIC, length, json, bits]);
}

/** Parses a snapshot; throws {@link InvalidSnapshotError} on anything else. */
export function decodeSnapshot(data: Buffer, where: string): { header: SnapshotHeader; bits: Uint8Array } {
  if (data.length < MAGIC.length + 4 || !data.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new InvalidSnapshotError(where, 'not a crawlee-bloom-dedup snapshot');
  }
  const length = data.readUInt32BE(MAGIC.length);
  const start = MAGIC.length + 4;
  let header: SnapshotHeader;
  try {
    header = JSON.parse(data.subarray(start, start + length).toString('utf8')) as SnapshotHeader;
  } catch (error) {
    throw new InvalidSnapshotError(where, 'unreadable header', { cause: error });
  }
  const bits = data.subarray(start + length);
  if (header.format !== 'crawlee-bloom-dedup/memory@1' || bits.length !== Math.ceil(header.bits / 8)) {
    throw new InvalidSnapshotError(where, `expected ${Math.ceil(header.bits / 8)} bytes of bits, found ${bits.length}`);
  }
  return { header, bits };
}

/** Writes a snapshot (a file is written to a temporary name first, then renamed, so a crash never leaves half a file). */
export async function writeSnapshot(target: SnapshotTarget, data: Buffer): Promise<void> {
  if ('file' in target) {
    await mkdir(dirname(target.file), { recursive: true });
    const tmp = `${target.file}.${process.pid}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, target.file);
    return;
  }
  await target.keyValueStore.setValue(target.key ?? DEFAULT_SNAPSHOT_KEY, data, { contentType: 'application/octet-stream' });
}

/** Reads a snapshot, or undefined when there is none yet. */
export async function readSnapshot(target: SnapshotTarget): Promise<Buffer | undefined> {
  if ('file' in target) {
    try {
      return await readFile(target.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
  const value = await target.keyValueStore.getValue<unknown>(target.key ?? DEFAULT_SNAPSHOT_KEY);
  if (value === null || value === undefined) return undefined;
  if (!Buffer.isBuffer(value)) throw new InvalidSnapshotError(describeTarget(target), 'the record is not binary');
  return value;
}
