import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './process-tools.js';
import { RedisUnavailableError } from './errors.js';

/** A certificate authority and a server certificate it signed, made with `openssl` for one test run. */
export interface TlsMaterial {
  /** PEM of the CA certificate: pass it as `redisOptions.tls.ca` to trust the server. */
  ca: string;
  /** Path of the CA certificate file. */
  caFile: string;
  /** Path of the server certificate (CN and subjectAltName `127.0.0.1` and `localhost`). */
  certFile: string;
  /** Path of the server's private key. */
  keyFile: string;
}

async function openssl(args: string[]): Promise<void> {
  let result;
  try {
    result = await run('openssl', args);
  } catch (error) {
    throw new RedisUnavailableError(`could not run openssl (${(error as Error).message}); install it with apt-get install -y openssl`, { cause: error });
  }
  if (result.code !== 0) throw new RedisUnavailableError(`openssl ${args[0]} exited with ${result.code}: ${result.stderr}`);
}

/**
 * Makes a self-signed CA and a server certificate signed by it in `dir` (RSA 2048, valid 2 days), with `openssl`
 * at test time: no key material lives in the repository. Two calls give two unrelated CAs (the "wrong CA" case).
 *
 * @param dir - folder to write `ca.crt`, `ca.key`, `server.crt`, `server.key` into (created when missing)
 * @returns the CA PEM and the file paths
 * @throws {@link RedisUnavailableError} when openssl is missing or fails
 */
export async function generateTlsCertificates(dir: string): Promise<TlsMaterial> {
  mkdirSync(dir, { recursive: true });
  const caKey = join(dir, 'ca.key');
  const caFile = join(dir, 'ca.crt');
  const keyFile = join(dir, 'server.key');
  const csr = join(dir, 'server.csr');
  const certFile = join(dir, 'server.crt');
  const ext = join(dir, 'server.ext');
  await openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', caKey, '-out', caFile, '-days', '2', '-subj', '/CN=crawlee-distributed test CA']);
  await openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', csr, '-subj', '/CN=127.0.0.1']);
  writeFileSync(ext, 'subjectAltName = IP:127.0.0.1, DNS:localhost\n');
  await openssl(['x509', '-req', '-in', csr, '-CA', caFile, '-CAkey', caKey, '-CAcreateserial', '-out', certFile, '-days', '2', '-extfile', ext]);
  return { ca: readFileSync(caFile, 'utf8'), caFile, certFile, keyFile };
}
