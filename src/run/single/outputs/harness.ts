// The harness's own lag over the run (event loop, dispatch, send schedule, CPU; harness/monitor.ts),
// from right before the load to its end, with the record pipeline's backlog and the preconnect:
// the `harness` section, and its warnings on the log.
import { HarnessMonitor, noteRecordBacklog, type HarnessReport } from '../../../harness/monitor.js';
import type { RawRecord } from '../../../model/raw-record.js';
import type { TransportRouter } from '../../../transport/router.js';
import type { LoadEnd, OutputReport, RunOutput } from '../output.js';

export class HarnessOutput implements RunOutput {
  readonly name = 'harness';
  private readonly monitor: HarnessMonitor;
  private report: HarnessReport | null = null;

  constructor(
    transport: TransportRouter,
    ioThreads: number,
    private readonly log: (msg: string) => void,
  ) {
    this.monitor = new HarnessMonitor(transport, undefined, ioThreads);
  }

  loadStart(): void {
    this.monitor.start();
  }

  requestDone(raw: RawRecord): void {
    this.monitor.observe(raw);
  }

  loadEnd(end: LoadEnd): void {
    const report = this.monitor.finish();
    if (end.preconnect) report.preconnect = end.preconnect;
    // Every record has been handed over by now: the backlog's peak is known.
    noteRecordBacklog(report, end.backlog.maxWaiting, end.backlog.workers, end.backlog.countedHere);
    for (const w of report.warnings) this.log(w);
    this.report = report;
  }

  finish(): OutputReport {
    return { section: { harness: this.report } };
  }
}
