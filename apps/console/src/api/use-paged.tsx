import { useCallback, useEffect, useState } from 'react';
import { call, query } from './client';

interface PagedState<T> {
  items: T[];
  more: boolean;
  busy: boolean;
  error: unknown;
  /** Fetch the next page after the last bookmark (new records, or the rest when `more`). */
  next: () => void;
}

/**
 * Reads a console endpoint that pages by the API's bookmarks: the first call starts at the beginning of the range,
 * each further call continues after the bookmark of the previous one, so nothing is read twice.
 */
export function usePaged<T>(path: string, list: string, maxAge: string): PagedState<T> {
  const [items, setItems] = useState<T[]>([]);
  const [follow, setFollow] = useState<string | undefined>(undefined);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(
    async (bookmark: string | undefined, previous: T[]) => {
      setBusy(true);
      setError(null);
      try {
        const page = await call<Record<string, unknown>>('GET', `${path}${query({ maxAge, follow: bookmark })}`);
        setItems([...previous, ...((page[list] as T[]) ?? [])]);
        setFollow(page.follow as string);
        setMore(page.more === true);
      } catch (e) {
        setError(e);
      } finally {
        setBusy(false);
      }
    },
    [path, list, maxAge],
  );

  useEffect(() => {
    void load(undefined, []);
  }, [load]);

  return { items, more, busy, error, next: () => void load(follow, items) };
}
