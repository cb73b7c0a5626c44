import type { FaqEntry } from "~/content/types";
import { Accordion } from "~/components/ui/accordion";
import { Section } from "~/components/ui/section";

/** FaqSection is a page band with a heading and the questions as an accordion (one answer open at a time). */
export function FaqSection({
  id = "faq",
  title,
  lead,
  entries,
  tone,
}: {
  id?: string;
  title: string;
  lead?: string;
  entries: readonly FaqEntry[];
  tone?: "plain" | "muted";
}) {
  return (
    <Section id={id} title={title} lead={lead} tone={tone}>
      <Accordion
        className="mx-auto max-w-3xl"
        items={entries.map((e) => ({ id: e.id, title: e.question, content: <p>{e.answer}</p> }))}
      />
    </Section>
  );
}
