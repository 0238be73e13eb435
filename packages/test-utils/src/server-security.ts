import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RedisOptions } from 'ioredis';
import { generateTlsCertificates, type TlsMaterial } from './tls-certificates.js';

/** What `password`, `aclUsers` and `tls` of a test server turn into. */
export interface ServerSecurity {
  /** The CA and certificate files, with `tls`. */
  tls?: TlsMaterial;
  /** ioredis options an admin client needs (default user's password, the CA). */
  adminOptions: RedisOptions;
  /** The redis-server arguments for a given port. */
  args(port: number): string[];
}

/** The security options of {@link startRedisServer}. */
interface SecurityOptions {
  password?: string;
  aclUsers?: string[];
  tls?: boolean;
}

/**
 * Turns `password`, `aclUsers` and `tls` into redis-server arguments, writing the ACL file and the certificates
 * into the server's data directory (`users.acl`, `tls/`), once per handle: a restart reuses them.
 *
 * @param dir - the server's data directory
 * @param options - the security options
 */
export async function securityArgs(dir: string, options: SecurityOptions): Promise<ServerSecurity> {
  const args: string[] = [];
  const adminOptions: RedisOptions = {};
  if (options.password !== undefined) adminOptions.password = options.password;
  if (options.aclUsers !== undefined) {
    const file = join(dir, 'users.acl');
    // The default user stays an admin (the handle's own probes), with the password when one is given.
    const defaultUser = `user default on ${options.password === undefined ? 'nopass' : `>${options.password}`} ~* &* +@all`;
    writeFileSync(file, [defaultUser, ...options.aclUsers].join('\n') + '\n');
    args.push('--aclfile', file);
  } else if (options.password !== undefined) {
    args.push('--requirepass', options.password);
  }
  let tls: TlsMaterial | undefined;
  if (options.tls) {
    tls = await generateTlsCertificates(join(dir, 'tls'));
    args.push('--port', '0', '--tls-cert-file', tls.certFile, '--tls-key-file', tls.keyFile, '--tls-ca-cert-file', tls.caFile, '--tls-auth-clients', 'no');
    adminOptions.tls = { ca: tls.ca };
  }
  return {
    ...(tls ? { tls } : {}),
    adminOptions,
    args: (port) => (tls ? ['--tls-port', String(port), ...args] : args),
  };
}
