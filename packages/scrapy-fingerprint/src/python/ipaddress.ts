import { InvalidUrlError } from '../errors/invalid-url-error.js';
import { pyRepr } from './repr.js';

const DECIMAL = /^[0-9]+$/;
const HEX = /^[0-9a-fA-F]*$/;

/** Python `ipaddress.IPv4Address` parsing (strict dotted quad, no leading zeros); true when valid. */
export function isIPv4(s: string): boolean {
  if (!s || s.includes('/')) return false;
  const octets = s.split('.');
  if (octets.length !== 4) return false;
  for (const o of octets) {
    if (!o || !DECIMAL.test(o) || o.length > 3) return false;
    if (o !== '0' && o[0] === '0') return false;
    if (Number(o) > 255) return false;
  }
  return true;
}

/** Python 3.11 `ipaddress.IPv6Address` parsing, scope id (`%zone`) included; true when valid. */
export function isIPv6(address: string): boolean {
  if (!address || address.includes('/')) return false;
  const pct = address.indexOf('%');
  let ip = address;
  if (pct >= 0) {
    const scope = address.slice(pct + 1);
    if (!scope || scope.includes('%')) return false;
    ip = address.slice(0, pct);
  }
  if (!ip) return false;
  const parts = ip.split(':');
  if (parts.length < 3) return false;
  if (parts[parts.length - 1]!.includes('.')) {
    if (!isIPv4(parts.pop()!)) return false;
    parts.push('0', '0');
  }
  if (parts.length > 9) return false;
  let skip = -1;
  for (let i = 1; i < parts.length - 1; i++) {
    if (!parts[i]) {
      if (skip >= 0) return false;
      skip = i;
    }
  }
  let hi: number;
  let lo: number;
  if (skip >= 0) {
    hi = skip;
    lo = parts.length - skip - 1;
    if (!parts[0]) {
      hi -= 1;
      if (hi) return false;
    }
    if (!parts[parts.length - 1]) {
      lo -= 1;
      if (lo) return false;
    }
    if (8 - (hi + lo) < 1) return false;
  } else {
    if (parts.length !== 8 || !parts[0] || !parts[parts.length - 1]) return false;
    hi = parts.length;
    lo = 0;
  }
  const hextets = [...parts.slice(0, hi), ...parts.slice(parts.length - lo)];
  return hextets.every((h) => h.length > 0 && h.length <= 4 && HEX.test(h));
}

/**
 * Python `urllib.parse._check_bracketed_host` (Debian 3.11.2 security backport): a bracketed host must be IPvFuture
 * (`v<hex>.<anything>`) or an IPv6 address.
 * @throws {@link InvalidUrlError} with Python's message otherwise
 */
export function checkBracketedHost(url: string, hostname: string): void {
  if (hostname.startsWith('v')) {
    if (!/^v[a-fA-F0-9]+\.[^\n]+$/.test(hostname)) {
      throw new InvalidUrlError(url, 'invalid-bracketed-host', 'IPvFuture address is invalid');
    }
    return;
  }
  if (isIPv4(hostname)) {
    throw new InvalidUrlError(url, 'invalid-bracketed-host', 'An IPv4 address cannot be in brackets');
  }
  if (!isIPv6(hostname)) {
    throw new InvalidUrlError(
      url,
      'invalid-bracketed-host',
      `${pyRepr(hostname)} does not appear to be an IPv4 or IPv6 address`,
    );
  }
}
