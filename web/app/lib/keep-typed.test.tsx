import { describe, expect, it } from "vitest";
import { act } from "react";
import { renderToString } from "react-dom/server";
import { hydrateRoot } from "react-dom/client";
import { NewsletterSignup } from "~/components/resources/newsletter-signup";

// act() is used directly here (hydrateRoot), not through Testing Library, which would say so itself.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * TypesMeanwhile stands for keys pressed while React hydrates: rendered after
 * the form, it adds text to the email field once the form's first render has
 * read what the field held (lib/early-input.ts), before the commit.
 */
let more: string | null = null;
function TypesMeanwhile() {
  if (more !== null && typeof document !== "undefined") {
    const field = document.querySelector<HTMLInputElement>('input[type="email"]')!;
    field.value += more;
    more = null;
  }
  return null;
}

const page = () => (
  <>
    <NewsletterSignup />
    <TypesMeanwhile />
  </>
);

describe("useKeepTyped", () => {
  it("keeps what was typed while the island hydrated, through the renders after", async () => {
    const container = document.createElement("div");
    container.innerHTML = renderToString(page());
    document.body.append(container);
    const field = container.querySelector<HTMLInputElement>('input[type="email"]')!;
    field.value = "ada@"; // typed before the island ran
    more = "example.com"; // typed while it hydrates

    const root = await act(async () => hydrateRoot(container, page()));
    expect(field.value).toBe("ada@example.com");
    // Another render from state (as useHydrated's, or any update) keeps it: the state has it.
    await act(async () => root.render(page()));
    expect(field.value).toBe("ada@example.com");
    root.unmount();
    container.remove();
  });
});
