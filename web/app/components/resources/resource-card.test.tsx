import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { ResourceCard, ResourceGrid, resourceFallback } from "./resource-card";
import type { InlineArt } from "~/components/ui/image";
import { findResource, resources } from "~/content/resources";
import { resourceFallbackIndex, resourceFallbacks } from "~/lib/image-fallback";

describe("resourceFallback", () => {
  it("is the fixed list's entry at the index derived from the title", () => {
    for (const r of resources) {
      expect(resourceFallback(r.title)).toBe(resourceFallbacks[resourceFallbackIndex(r.title)]);
    }
  });
  it("spreads the resources over more than one picture", () => {
    expect(new Set(resources.map((r) => resourceFallback(r.title))).size).toBeGreaterThan(2);
  });
});

describe("ResourceCard", () => {
  const renderCard = (slug: string) => {
    const resource = findResource(slug)!;
    render(
        <ResourceCard resource={resource} />,
    );
    return { resource, card: screen.getByRole("article") };
  };

  it("shows title (linked to the detail page), description, category, date, author and length", () => {
    const { resource, card } = renderCard("building-for-exit-podcast");
    expect(within(card).getByRole("link", { name: resource.title }).getAttribute("href")).toBe("/resources/building-for-exit-podcast");
    expect(card.textContent).toContain(resource.description);
    expect(card.textContent).toContain("Podcast");
    expect(card.textContent).toContain("March 4, 2025");
    expect(card.textContent).toContain("Daniel Okafor");
    expect(card.textContent).toContain("42 min listen");
    expect(card.querySelector("time")?.getAttribute("dateTime")).toBe("2025-03-04");
  });

  it("a template card also offers its file", () => {
    const { card } = renderCard("financial-model-template");
    const download = within(card).getByRole("link", { name: /Download/ });
    expect(download.getAttribute("href")).toBe("/storage/v1/object/public/downloads/saas-financial-model.csv?download");
    expect(download.hasAttribute("download")).toBe(true);
    expect(card.textContent).toContain("CSV, 3 KB");
  });

  it("a broken cover falls back to the title's picture from the fixed list", () => {
    const { resource, card } = renderCard("ai-in-saas");
    const img = card.querySelector("img")!;
    expect(img.getAttribute("src")).toBe(resource.image.src);
    fireEvent.error(img);
    expect(img.getAttribute("src")).toBe(resourceFallbacks[resourceFallbackIndex(resource.title)]);
  });
});

describe("ResourceGrid", () => {
  const covers = (firstArt?: InlineArt) => {
    const { container, unmount } = render(<ResourceGrid resources={resources.slice(0, 3)} firstArt={firstArt} />);
    const drawn = [...container.querySelectorAll("article > :first-child")].map((c) =>
      c.tagName === "svg" ? `inline ${c.getAttribute("viewBox")}` : `${c.getAttribute("loading")}/${c.getAttribute("fetchpriority") ?? "auto"}`,
    );
    unmount();
    return drawn;
  };

  it("draws the first cover inline when the grid starts in the first screen (it paints with the text), the others lazily", () => {
    expect(covers({ viewBox: "0 0 640 360", markup: "<rect/>" })).toEqual(["inline 0 0 640 360", "lazy/auto", "lazy/auto"]);
  });
  it("otherwise lazily, every one", () => {
    expect(covers()).toEqual(["lazy/auto", "lazy/auto", "lazy/auto"]);
  });
});
