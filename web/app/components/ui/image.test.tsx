import { describe, expect, it } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { Image } from "./image";
import { LAST_RESORT } from "~/lib/image-fallback";

// The swaps are made by the page's imageFallbackScript, which vitest.setup.ts installs as every page does.

describe("Image", () => {
  it("always sets width and height, and is lazy unless it has priority", () => {
    render(
      <>
        <Image src="/a.svg" alt="Team portrait" width={400} height={300} />
        <Image src="/b.svg" alt="Hero" width={640} height={480} priority />
      </>,
    );
    const [lazy, eager] = screen.getAllByRole("img") as HTMLImageElement[];
    expect(lazy!.getAttribute("width")).toBe("400");
    expect(lazy!.getAttribute("height")).toBe("300");
    expect(lazy!.getAttribute("loading")).toBe("lazy");
    expect(eager!.getAttribute("loading")).toBe("eager");
    expect(eager!.getAttribute("fetchpriority")).toBe("high");
    expect(lazy!.getAttribute("fetchpriority")).toBeNull();
  });

  it("with lowPriority, is lazy and asks for low priority", () => {
    render(<Image src="/a.svg" alt="Dashboard" width={640} height={480} lowPriority />);
    const img = screen.getByRole("img");
    expect(img.getAttribute("loading")).toBe("lazy");
    expect(img.getAttribute("fetchpriority")).toBe("low");
  });

  it("swaps to the keyword fallback, then to the last resort, then stops", () => {
    render(<Image src="/missing.png" alt="Team portrait" width={400} height={300} />);
    const img = screen.getByRole("img") as HTMLImageElement;
    fireEvent.error(img);
    expect(img.getAttribute("src")).toBe("/images/fallback/people.svg");
    fireEvent.error(img);
    expect(img.getAttribute("src")).toBe(LAST_RESORT);
    fireEvent.error(img);
    expect(img.getAttribute("src")).toBe(LAST_RESORT);
    expect(img.getAttribute("alt")).toBe("Team portrait");
  });
});
