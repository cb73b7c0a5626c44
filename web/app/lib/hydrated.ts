import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** useHydrated is false while prerendering and during hydration, true after. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
