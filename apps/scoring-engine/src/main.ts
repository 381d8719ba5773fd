import 'reflect-metadata';
import { runVigilService } from '@vigil/platform';
import { ScoringModule } from '@vigil/scoring';

void runVigilService({ name: 'scoring-engine', features: [ScoringModule] });
