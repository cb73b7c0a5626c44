import { useLayoutEffect } from "react";
import { earlyValue } from "~/lib/early-input";

/**
 * useKeepTyped takes what was typed into the text fields with these ids
 * while the island hydrated: after its first render read earlyValue and
 * before React had the field. Hydration leaves that text in the field but
 * not in state, and the island's next render would put the state back (the
 * text would vanish under the visitor's fingers). Once hydrated, before any
 * other render, take(id, text) is called for each field whose text differs
 * from its state (hydration made the state its default value).
 */
export function useKeepTyped(ids: readonly string[], take: (id: string, text: string) => void) {
  useLayoutEffect(() => {
    for (const id of ids) {
      const text = earlyValue(id);
      if (text !== undefined) take(id, text);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as hydration commits
  }, []);
}
