import { HttpException } from '@nestjs/common';
import { withDomainErrors, type DomainErrorStatus } from './domain-errors';

class Missing extends Error {}
class Invalid extends Error {}
const ERRORS: DomainErrorStatus[] = [[Invalid, 400], [Missing, 404]];

const statusOf = (error: unknown) => (error instanceof HttpException ? [error.getStatus(), error.getResponse()] : error);

describe('withDomainErrors', () => {
  it('turns listed errors into their status with the message, for sync and async actions', async () => {
    expect(withDomainErrors(ERRORS, () => 7)).toBe(7);
    expect(await withDomainErrors(ERRORS, async () => 8)).toBe(8);
    let thrown: unknown;
    try {
      withDomainErrors(ERRORS, () => {
        throw new Missing('no such key');
      });
    } catch (error) {
      thrown = error;
    }
    expect(statusOf(thrown)).toEqual([404, { message: 'no such key' }]);
    const rejected = await withDomainErrors(ERRORS, async () => {
      throw new Invalid('bad date');
    }).catch((error: unknown) => error);
    expect(statusOf(rejected)).toEqual([400, { message: 'bad date' }]);
  });

  it('lets other errors through unchanged', async () => {
    const other = new TypeError('bug');
    await expect(withDomainErrors(ERRORS, async () => Promise.reject(other))).rejects.toBe(other);
  });
});
