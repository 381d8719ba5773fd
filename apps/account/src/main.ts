import 'reflect-metadata';
import { AccountModule } from '@vigil/account';
import { runVigilService } from '@vigil/platform';

void runVigilService({ name: 'account', features: [AccountModule] });
