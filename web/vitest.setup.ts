import { afterEach } from "vitest";
import { cleanup } from "@testing-library/react";
import { imageFallbackScript } from "~/lib/image-fallback";

afterEach(cleanup);

// Every page carries the image fallback script in its head (layouts/Layout.astro); so does the test document.
new Function(imageFallbackScript)();
