// The stop signals (run/profile/signals.ts): SIGINT, SIGTERM and SIGHUP share one count: stop, cancel, quit
// after a delay, quit now. Listeners are called through process.emit, so nothing is really signalled.
import { afterEach, describe, expect, it } from 'vitest';
import { RunControl } from '../../../src/load/control.js';
import { onStopSignals, STOP_SIGNALS } from '../../../src/run/profile/signals.js';

let off: (() => void) | null = null;
afterEach(() => {
  off?.();
  off = null;
});

const emit = (s: NodeJS.Signals) => process.emit(s as 'SIGINT', s);

describe('onStopSignals', () => {
  it.each(STOP_SIGNALS)('the first %s stops issuing and says which signal, naming the grace period', (sig) => {
    const control = new RunControl();
    const lines: string[] = [];
    off = onStopSignals(control, 30, (l) => lines.push(l), { quit: () => {} });
    emit(sig);
    expect(control.stopped).toBe(true);
    expect(control.cancelled).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^interrupted: no new requests; waiting up to 30 s .*\\(${sig};`));
  });

  it('signals of different kinds add up: TERM, HUP cancels, INT quits after the delay, a fourth quits now', async () => {
    const control = new RunControl();
    const lines: string[] = [];
    let quits = 0;
    off = onStopSignals(control, null, (l) => lines.push(l), { quit: () => quits++, quitAfterMs: 30 });
    emit('SIGTERM');
    expect(lines[0]).toMatch(/waiting without limit/);
    emit('SIGHUP');
    expect(control.cancelled).toBe(true);
    expect(lines[1]).toMatch(/^interrupted again: cancelling .*\(SIGHUP;/);
    emit('SIGINT');
    expect(lines[2]).toMatch(/^interrupted a third time \(SIGINT\): quitting within 0.03 s/);
    expect(quits).toBe(0);
    await new Promise((r) => setTimeout(r, 80));
    expect(quits).toBe(1);
    emit('SIGINT');
    expect(quits).toBe(2);
  });

  it('removing the handlers also drops a pending quit (the exports were written in time)', async () => {
    const control = new RunControl();
    let quits = 0;
    const remove = onStopSignals(control, 1, () => {}, { quit: () => quits++, quitAfterMs: 20 });
    for (const s of ['SIGINT', 'SIGINT', 'SIGINT'] as const) emit(s);
    remove();
    await new Promise((r) => setTimeout(r, 60));
    expect(quits).toBe(0);
    for (const s of STOP_SIGNALS) expect(process.listenerCount(s)).toBe(0);
  });
});
