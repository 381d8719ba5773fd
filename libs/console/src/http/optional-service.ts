import { ServiceUnavailableException, type Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';

/**
 * A service of another feature module of this process (the console reuses them), or a 503 naming the service
 * that must run here: in a split deployment the console's process does not host every service.
 */
export function serviceOf<T>(modules: ModuleRef, type: Type<T>, owner: string): T {
  try {
    return modules.get(type, { strict: false });
  } catch {
    throw new ServiceUnavailableException({ message: `This needs the ${owner} service, which does not run in this process` });
  }
}
