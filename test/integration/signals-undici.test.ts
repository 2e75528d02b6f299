// SIGTERM, SIGHUP and one to four SIGINTs mid-run on the undici transport (the cases: helpers/signal-run.ts).
import { signalSuite } from '../helpers/signal-run.js';

signalSuite('undici');
