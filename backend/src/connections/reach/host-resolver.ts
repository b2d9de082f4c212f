import { Injectable } from '@nestjs/common';
import { systemLookup } from './target-policy.js';

/** Name resolution behind an injectable, so a test can play a DNS answer that changes between two lookups. */
@Injectable()
export class HostResolver {
  lookup(host: string): Promise<{ address: string; family: number }[]> {
    return systemLookup(host);
  }
}
