export { ConsoleModule } from './console.module';
export { CONSOLE_CSP } from './http/security-headers';
export { ensureConsoleBuilt, hashSources, locateConsole, staleness, type ConsolePaths } from './assets/console-build';
export { SessionStore, type ConsoleSession } from './session/session-store';
export { SignInLimiter } from './session/sign-in-limiter';
