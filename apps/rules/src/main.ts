import 'reflect-metadata';
import { runVigilService } from '@vigil/platform';
import { RulesModule } from '@vigil/rules';

void runVigilService({ name: 'rules', features: [RulesModule] });
