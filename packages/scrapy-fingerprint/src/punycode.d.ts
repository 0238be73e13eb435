// npm `punycode` ships no types; only RFC 3492 encoding is used here.
declare module 'punycode/punycode.js' {
  const punycode: { encode(input: string): string; decode(input: string): string };
  export default punycode;
}
