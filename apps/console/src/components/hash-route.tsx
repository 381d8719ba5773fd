import { useEffect, useState } from 'react';

/** The page is chosen by the URL fragment (`#/findings`): the server serves one document under /console. */
export function useHashRoute(): [string, (route: string) => void] {
  const read = () => window.location.hash.replace(/^#\/?/, '');
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onChange = () => setRoute(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return [route, (next) => { window.location.hash = `#/${next}`; }];
}
