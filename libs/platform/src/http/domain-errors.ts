import { HttpException } from '@nestjs/common';

/** A domain error class and the status it answers with (its message becomes the `{message}` body). */
export type DomainErrorStatus = readonly [errorClass: abstract new (...args: never[]) => Error, status: number];

/**
 * Runs a controller action, turning the listed domain errors into HTTP answers; other errors pass unchanged (the
 * exception filter makes them 500). Works for synchronous and asynchronous actions alike.
 */
export function withDomainErrors<T>(statuses: readonly DomainErrorStatus[], action: () => T): T {
  const translate = (error: unknown): unknown => {
    const match = statuses.find(([errorClass]) => error instanceof errorClass);
    return match === undefined ? error : new HttpException({ message: (error as Error).message }, match[1]);
  };
  try {
    const result = action();
    return (result instanceof Promise ? result.catch((error: unknown) => Promise.reject(translate(error))) : result) as T;
  } catch (error) {
    throw translate(error);
  }
}
