import type { ReactNode } from "react";
import type { FaqEntry } from "~/content/types";
import { Accordion } from "~/components/ui/accordion";
import { Section } from "~/components/ui/section";

/** FaqSection is a page band with a heading; its children are the questions (a FaqAccordion island). */
export function FaqSection({
  id = "faq",
  title,
  lead,
  tone,
  children,
}: {
  id?: string;
  title: string;
  lead?: string;
  tone?: "plain" | "muted";
  children?: ReactNode;
}) {
  return (
    <Section id={id} title={title} lead={lead} tone={tone}>
      {children}
    </Section>
  );
}

/** FaqAccordion is the questions of a FaqSection as an accordion (one answer open at a time); an island. */
export function FaqAccordion({ entries }: { entries: readonly FaqEntry[] }) {
  return (
    <Accordion className="mx-auto max-w-3xl" items={entries.map((e) => ({ id: e.id, title: e.question, content: <p>{e.answer}</p> }))} />
  );
}
