import { EventEmitter } from 'node:events';
import { Global, Injectable, Module } from '@nestjs/common';

/**
 * What the feature modules report for operations (src/ops turns it into metrics). Labels only: scheme ids,
 * outcomes, result_explanation values; never a subject, a token or personal data.
 */
export interface TelemetryEvents {
  /** A person started signing in with an eID scheme (picked it, or it was preselected). */
  loginStarted: [scheme: string];
  /** The scheme answered: identified (success) or a failure handed to the merchant. */
  loginFinished: [scheme: string, outcome: 'success' | 'failure'];
  verificationCompleted: [result: 'pass' | 'fail', explanations: string[]];
  /** The face-work queue changed: verifications running and waiting on this instance. */
  faceQueue: [running: number, waiting: number];
  /** One face verification: seconds it waited for a slot, and seconds it held it. */
  faceWork: [waitSeconds: number, runSeconds: number];
  faceRefused: [];
  /** A face worker thread replaced: over FACE_WORKER_RECYCLE_MB (memory), grown and idle (idle), or ended on its own (exit). */
  faceWorkerRecycled: [reason: 'memory' | 'idle' | 'exit'];
  /** A CIBA callback attempt: delivered, to be retried, or given up for good. */
  callbackDelivery: [outcome: 'delivered' | 'retry' | 'given_up'];
}

/** One per application (tests run several in a process): injected where events happen, optional for unit tests. */
@Injectable()
export class Telemetry extends EventEmitter<TelemetryEvents> {}

@Global()
@Module({ providers: [Telemetry], exports: [Telemetry] })
export class TelemetryModule {}
