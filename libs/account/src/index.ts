export * from './account.service';
export * from './account-status.service';
export * from './account.module';
export * from './admin-token';
export * from './duration';
export * from './migrations';
export { AdminGuard } from './http/admin.guard';
export { OperatorTokenVerifier } from './http/operator-token.verifier';
