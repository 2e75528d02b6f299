// Types of bench/tls-certs.js (the TLS tests use it through test/helpers/tls-certs.ts).
export interface TestCerts {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  /** Valid, signed by the CA, but for other.example only. */
  otherCert: string;
  otherKey: string;
  clientCert: string;
  clientKey: string;
}
export declare function makeTestCerts(dir: string): TestCerts;
