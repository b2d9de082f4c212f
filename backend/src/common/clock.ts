import { Injectable } from '@nestjs/common';

/** Time behind an injectable so tests can move it (token expiry, rate-limit windows). */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  iso(offsetMs = 0): string {
    return new Date(this.now().getTime() + offsetMs).toISOString();
  }
}
