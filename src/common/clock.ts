import { Global, Injectable, Module } from '@nestjs/common';

/**
 * The service's notion of now. Time-dependent rules (liveness window, session expiry, retention) read it
 * here so that tests can move time forward without waiting.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Tests only: shift the clock forward (or back). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** One clock for the whole service (a test that moves it moves every rule that reads it). */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
