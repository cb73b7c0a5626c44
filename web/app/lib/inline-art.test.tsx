import { describe, expect, it } from "vitest";
import { render } from "@testing-library/react";
import { artOf, inlineArt } from "./inline-art";
import { Image } from "~/components/ui/image";

describe("inlineArt", () => {
  it("gives the picture's viewBox and content, its ids and their references prefixed with the file's name", () => {
    const art = inlineArt("/images/resources/saas-founders-playbook.svg");
    expect(art.viewBox).toBe("0 0 640 360");
    expect(art.markup).toContain(`id="saas-founders-playbook-bg"`);
    expect(art.markup).toContain(`fill="url(#saas-founders-playbook-bg)"`);
    expect(art.markup).toContain(`clip-path="url(#saas-founders-playbook-cl)"`);
    expect(art.markup).not.toMatch(/id="bg"|url\(#bg\)|<svg/);
  });

  it("fails for a picture that is not in public/images", () => {
    expect(() => inlineArt("/images/nowhere.svg")).toThrow(/no SVG picture/);
  });

  it.each([
    ["a <style>", `<style>rect{fill:red}</style>`],
    ["a style attribute", `<rect style="fill:red"/>`],
    ["a <script>", `<script>alert(1)</script>`],
    ["an event handler", `<rect onclick="alert(1)"/>`],
    ["a javascript: link", `<a href="javascript:alert(1)"><rect/></a>`],
  ])("fails for a picture with %s, which the Content-Security-Policy refuses inline", (_, inner) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${inner}</svg>`;
    expect(() => artOf("/images/bad.svg", svg)).toThrow("/images/bad.svg: a style or script, which the Content-Security-Policy refuses inline");
    expect(artOf("/images/good.svg", `<svg viewBox="0 0 10 10"><rect fill="red"/></svg>`).markup).toBe(`<rect fill="red"/>`);
  });

  it("is drawn by Image as an inline <svg> of the same size and classes, labelled by the alt text", () => {
    const art = inlineArt("/images/products/aurion.svg");
    const { container } = render(
      <>
        <Image src="/images/products/aurion.svg" alt="AURION dashboard" width={640} height={480} art={art} className="h-auto w-full" />
        <Image src="/images/products/aurion.svg" alt="" width={640} height={480} art={art} />
      </>,
    );
    const [labelled, decorative] = [...container.querySelectorAll("svg")];
    expect(container.querySelector("img")).toBeNull();
    expect(labelled!.getAttribute("role")).toBe("img");
    expect(labelled!.getAttribute("aria-label")).toBe("AURION dashboard");
    expect(labelled!.getAttribute("width")).toBe("640");
    expect(labelled!.getAttribute("class")).toBe("h-auto w-full");
    expect(labelled!.querySelector("#aurion-bg")).not.toBeNull();
    expect(decorative!.getAttribute("aria-hidden")).toBe("true");
    expect(decorative!.hasAttribute("role")).toBe(false);
  });
});
