import 'reflect-metadata';
import { GatewayModule } from '@vigil/gateway';
import { runVigilService } from '@vigil/platform';

void runVigilService({ name: 'ingest-gateway', features: [GatewayModule] });
