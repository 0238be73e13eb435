// cluster-key-slot 1.1.1 ships no types; these are the two functions ioredis itself calls.
declare module 'cluster-key-slot' {
  /** Redis Cluster slot (0 to 16383) of a key. */
  function generate(key: string | Uint8Array): number;
  namespace generate {
    /** The common slot of the keys, or -1 when they are on different slots. */
    function generateMulti(keys: ReadonlyArray<string | Uint8Array>): number;
  }
  export = generate;
}
