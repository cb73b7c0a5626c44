/**
 * The pages a form posted without JavaScript lands on (the server answers a
 * native post with 303 See Other): a sign-up's confirmation, or what was
 * wrong. The messages of the problems are the rules' own
 * (internal/form/rules.json, "problems"), shared with the Go server.
 */
import rules from "../../../internal/form/rules.json" with { type: "json" };

export const formProblems: Readonly<Record<string, string>> = rules.problems;

export const formOutcome = {
  /** /forms/problem/{reason} */
  problem: {
    title: "Your submission was not sent",
    back: "Use your browser's Back button to return to the form: what you typed is still there.",
    home: { label: "Return to Home", href: "/" },
    contact: { label: "Contact Us", href: "/contact" },
  },
  /** /products/{id}/joined */
  joinedPath: (productId: string) => `/products/${productId}/joined`,
  /** /resources/subscribed */
  subscribedPath: "/resources/subscribed",
  backToProduct: (name: string) => `Back to ${name}`,
  backToResources: { label: "Back to Resources", href: "/resources" },
} as const;
