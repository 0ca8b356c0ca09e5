import { useEffect, useState } from 'react';

/** The value, once it has stopped changing for `delay` ms (typing is debounced, not every key queried). */
export function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
