export * from './rules.module';
export * from './inventory.service';
