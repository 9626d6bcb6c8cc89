// The serving TLS settings: which cipher suite a connection gets, chosen as kube-apiserver's Go
// crypto/tls chooses it rather than as Node's defaults would.
// Upstream: Go crypto/tls cipher_suites.go (cipherSuitesPreferenceOrder, aesgcmPreferred), Go 1.17+.
import { constants } from 'node:crypto';
import { DEFAULT_CIPHERS } from 'node:tls';
import type { SecureContextOptions, TlsOptions } from 'node:tls';

// Go orders suites itself: AES-128-GCM before AES-256-GCM (as strong, faster), ChaCha20-Poly1305
// last where the CPU has AES instructions. Node's default list puts TLS 1.3's AES-256-GCM first
// and follows the client's order, so a client that lists AES-256 first (OpenSSL's default, Node's,
// Python's) got AES-256 here and AES-128 from a real API server. TLS 1.2's suites keep Node's
// order, which already puts the AES-128-GCM ones first.
const tls13Suites = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

/**
 * The server's own order, honoured, with ChaCha20 moved first for a client that asks for it first
 * (a client without AES instructions): Go's aesgcmPreferred rule, as OpenSSL's PRIORITIZE_CHACHA.
 */
export function servingCipherOptions(): Pick<TlsOptions, 'honorCipherOrder'> & Pick<SecureContextOptions, 'ciphers' | 'secureOptions'> {
  const tls12Suites = DEFAULT_CIPHERS.split(':').filter((suite) => !suite.startsWith('TLS_'));
  return { ciphers: [...tls13Suites, ...tls12Suites].join(':'), honorCipherOrder: true, secureOptions: constants.SSL_OP_PRIORITIZE_CHACHA };
}
