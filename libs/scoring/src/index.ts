export * from './scoring.module';
export * from './scoring.consumer';
export * from './intel';
