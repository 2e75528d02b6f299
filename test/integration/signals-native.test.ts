// SIGTERM, SIGHUP and one to four SIGINTs mid-run on the native transport (the cases: helpers/signal-run.ts).
import { signalSuite } from '../helpers/signal-run.js';

signalSuite('native');
