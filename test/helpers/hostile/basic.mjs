// Baseline modes: a well-behaved stream (the control case for the invariant checks).
import { goodStream } from './http.mjs';

export const modes = {
  good: { handle: (_req, conn) => goodStream(conn.socket, 3) },
};
