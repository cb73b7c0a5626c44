import type { ReactNode } from "react";
import { faqs } from "~/content/faqs";
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

/** FaqAccordion is the questions of a FaqSection (faq, their name in content/faqs.ts) as an accordion, one answer open at a time; an island. */
export function FaqAccordion({ faq }: { faq: string }) {
  const entries = faqs[faq];
  if (!entries) throw new Error(`no questions named ${faq}`);
  return (
    <Accordion className="mx-auto max-w-3xl" items={entries.map((e) => ({ id: e.id, title: e.question, content: <p>{e.answer}</p> }))} />
  );
}
