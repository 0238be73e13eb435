import { NameRegistry, Parser } from 'pickleparser';

/**
 * The Python globals a pickled Scrapy request dict may name, and nothing else. `pickle.dumps(request.to_dict())`
 * (scrapy-redis's `picklecompat`, protocol -1) writes bytes natively from protocol 3 on; protocol 2 writes them as
 * `_codecs.encode(<latin-1 text>, 'latin1')` and `__builtin__.bytes()`, and sets as `__builtin__.set([...])`.
 * Any other global (a class, a function) is refused: the parser never calls code it does not know.
 */
class ScrapyDictNames extends NameRegistry {
  constructor() {
    super();
    const bytes = (value?: unknown) => toBuffer(value);
    const set = (items?: unknown): unknown[] => (Array.isArray(items) ? [...(items as unknown[])] : []);
    for (const module of ['builtins', '__builtin__']) {
      this.register(module, 'bytes', bytes);
      this.register(module, 'bytearray', bytes);
      this.register(module, 'set', set);
      this.register(module, 'frozenset', set);
    }
    this.register('_codecs', 'encode', (text: unknown, encoding?: unknown) => {
      if (typeof text !== 'string') throw new Error('_codecs.encode of a non-string');
      const enc = (typeof encoding === 'string' ? encoding : 'utf-8').toLowerCase().replace(/[-_]/g, '');
      if (enc !== 'latin1' && enc !== 'iso88591') throw new Error(`_codecs.encode with encoding ${JSON.stringify(encoding)}`);
      return Buffer.from(text, 'latin1');
    });
  }

  override onMissingName(module: string, name: string): never {
    throw new Error(`pickle names ${module}.${name}, which a Scrapy request dict never holds`);
  }
}

function toBuffer(value: unknown): Buffer {
  if (value === undefined) return Buffer.alloc(0);
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) return Buffer.from(value as number[]);
  throw new Error('bytes() of an unsupported value');
}

/** A Python value as the unpickler returns it: Buffers for bytes, Maps for dicts, arrays for lists/tuples/sets. */
export type PyValue = null | boolean | number | string | Buffer | PyValue[] | Map<PyValue, PyValue>;

function normalize(value: unknown): PyValue {
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (value instanceof Map) {
    const map = new Map<PyValue, PyValue>();
    for (const [k, v] of value) map.set(normalize(k), normalize(v));
    return map;
  }
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  throw new Error(`pickle holds an object (${Object.prototype.toString.call(value)}) a Scrapy request dict never holds`);
}

/**
 * Parses one pickle (protocols 0-5, as written by Python's `pickle.dumps`) with the `pickleparser` library, allowing
 * only the globals a Scrapy request dict needs; never evaluates code.
 *
 * @param raw - the pickled bytes
 * @returns the value (dict keys keep their Python types: bytes keys are Buffers)
 * @throws Error saying why the bytes are not a pickle of plain data
 */
export function unpickle(raw: Buffer): PyValue {
  if (raw.length < 2 || raw[0] !== 0x80 || raw[1]! < 2 || raw[1]! > 5) {
    throw new Error('not a pickle of protocol 2-5 (scrapy-redis pickles with protocol -1)');
  }
  const parser = new Parser({ nameResolver: new ScrapyDictNames(), unpicklingTypeOfDictionary: 'Map', unpicklingTypeOfSet: 'array' });
  return normalize(parser.parse(raw));
}
