export * from './api-key';
export * from './basic-auth';
export * from './key-directory';
export * from './key-directory.service';
export * from './api-key-authenticator';
export * from './api-key.guard';
export * from './auth.module';
