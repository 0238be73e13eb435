import { InvalidDatasetItemError } from './errors/invalid-dataset-item-error.js';

type Item = Record<string, unknown>;

function parse(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidDatasetItemError(`${where} is a string but not JSON (${(error as Error).message}); pass an object`, { cause: error });
  }
}

function asItem(value: unknown, where: string): Item {
  const item = typeof value === 'string' ? parse(value, where) : value;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new InvalidDatasetItemError(
      `${where} must be a JSON object (got ${Array.isArray(item) ? 'an array' : item === null ? 'null' : typeof item}); ` +
        'pushData takes an object or an array of objects',
    );
  }
  return item as Item;
}

/**
 * Turns what Crawlee's `pushItems` receives (an object, a JSON string, or an array of either; `Dataset.pushData`
 * sends JSON strings of arrays) into one compact JSON string per item, the shape Crawlee's MemoryStorage accepts.
 * Everything is checked before anything is written.
 *
 * @param items - the pushItems argument
 * @returns one JSON text per item, in order
 * @throws {@link InvalidDatasetItemError} when an item is not a JSON object
 */
export function normalizeItems(items: unknown): string[] {
  const top = typeof items === 'string' ? parse(items, 'the pushed string') : items;
  const list = Array.isArray(top) ? top : [top];
  return list.map((value, n) => JSON.stringify(asItem(value, `item ${n}`)));
}
