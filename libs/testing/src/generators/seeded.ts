import { createRng, type Rng } from '../prng';

/** The generator of one kind of events for a seed: each kind draws its own sequence. */
export function seeded(kind: string, seed: number | string | undefined): Rng {
  return createRng(`${kind}:${seed ?? 1}`);
}
