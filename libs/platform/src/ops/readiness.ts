import { Injectable } from '@nestjs/common';

/** Components report here when they are ready to serve; /readyz answers 200 only when all are. */
@Injectable()
export class Readiness {
  private readonly pending = new Set<string>();
  private readonly known = new Set<string>();

  expect(component: string): void {
    this.known.add(component);
    this.pending.add(component);
  }

  ready(component: string): void {
    this.known.add(component);
    this.pending.delete(component);
  }

  notReady(component: string): void {
    if (this.known.has(component)) this.pending.add(component);
  }

  status(): { ready: boolean; waitingFor: string[] } {
    return { ready: this.pending.size === 0, waitingFor: [...this.pending] };
  }
}
