import { aboutCta, aboutHero, aboutMeta, story, team, values } from "~/content/about";
import { Section } from "~/components/ui/section";
import { PageHero } from "~/components/page-hero";
import { StatsRow } from "~/components/stats-row";
import { FeatureCard } from "~/components/feature-card";
import { TeamCard } from "~/components/team-card";
import { CtaBand } from "~/components/cta-band";
import { pageMeta } from "~/lib/meta";

export const meta = (path: string) => pageMeta(aboutMeta, { path });

export default function About() {
  return (
    <>
      <PageHero eyebrow={aboutHero.eyebrow} title={aboutHero.title} lead={aboutHero.lead} />

      <section aria-labelledby="story-heading" data-first-screen="" className="py-16 sm:py-20">
        <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-[3fr_2fr] lg:gap-16 lg:px-8">
          <div>
            <h2 id="story-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
              {story.title}
            </h2>
            <div className="mt-6 space-y-5 text-lg text-slate-600 dark:text-slate-300">
              {story.paragraphs.map((p) => (
                <p key={p}>{p}</p>
              ))}
            </div>
          </div>
          <StatsRow stats={story.stats} label={story.title} columns={2} className="self-center" />
        </div>
      </section>

      <Section id="values" title={values.title} lead={values.lead} tone="muted">
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {values.items.map((v) => (
            <FeatureCard key={v.title} card={v} />
          ))}
        </div>
      </Section>

      <Section id="team" title={team.title} lead={team.lead}>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {team.members.map((m) => (
            <li key={m.name}>
              <TeamCard member={m} portraitAlt={team.portraitAlt} />
            </li>
          ))}
        </ul>
      </Section>

      <CtaBand {...aboutCta} />
    </>
  );
}
