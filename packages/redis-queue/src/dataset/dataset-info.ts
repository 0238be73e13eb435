import type { DatasetInfo } from './dataset-types.js';

/**
 * The `DatasetInfo` of a meta hash plus the list length (the item count: the list is the only count, so it stays
 * right under concurrent pushes from any number of processes).
 *
 * @param id - the dataset id, used when the hash lacks one
 * @param meta - the HGETALL reply
 * @param itemCount - LLEN of the items list
 * @returns Crawlee's DatasetInfo; `accessedAt` is the time of this read (reads write nothing)
 */
export function toDatasetInfo(id: string, meta: Record<string, string>, itemCount: number): DatasetInfo {
  const date = (value: string | undefined) => new Date(Number(value ?? 0) || 0);
  return {
    id: meta.id ?? id,
    ...(meta.name ? { name: meta.name } : {}),
    createdAt: date(meta.createdAt),
    modifiedAt: date(meta.modifiedAt),
    accessedAt: new Date(),
    itemCount,
  };
}
