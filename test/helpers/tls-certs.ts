// The TLS tests' throwaway CA and certificates: made by bench/tls-certs.js (shared with the harness
// benchmark's HTTPS section). Without the openssl CLI the test fails loudly, never skips.
export { makeTestCerts, type TestCerts } from '../../bench/tls-certs.js';
