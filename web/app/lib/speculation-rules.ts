/**
 * speculationRules lets the browser prefetch a page of the site when a link
 * to it is hovered (about 200 ms) or pressed, so the document load that a
 * click starts is served from the prefetch ("moderate" eagerness). It is
 * data for the browser, not a script: nothing runs on the main thread.
 * Browsers without speculation rules load pages on click as usual.
 */
export const speculationRules = JSON.stringify({
  // Not /go/*: a prefetch of an outbound link would follow its redirect to another site.
  prefetch: [{ where: { and: [{ href_matches: "/*" }, { not: { href_matches: "/functions/*" } }, { not: { href_matches: "/go/*" } }] }, eagerness: "moderate" }],
});
