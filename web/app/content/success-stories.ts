/** Copy of /studio/success-stories (docs/requirements.md#success-stories). */
import type { CallToAction, CaseStudy, Link, PageIntro } from "./types";
export { successStoriesMeta } from "./page-meta";


export const successStoriesHero = {
  eyebrow: "Success stories",
  title: "Founders Who Built Their Success With Us",
  lead: "Three companies, three stages: a launch, a scale-up and an exit. Here is what was at stake, what we did and what changed.",
  bookCall: { label: "Book a Discovery Call", href: "/contact" } satisfies Link,
} as const satisfies PageIntro & { bookCall: Link };

export const caseStudyLabels = {
  challenge: "The Challenge",
  solution: "Our Solution",
  results: "Results",
} as const;

export const caseStudies = [
  {
    id: "orbit-pay",
    title: "Scaling a payments platform to ten times the volume",
    company: "Orbit Pay",
    industry: "Fintech · Scale",
    description:
      "Orbit Pay helps online marketplaces pay out thousands of sellers a day. After a strong first year, growth was starting to break the product that had made it possible.",
    challenge:
      "Payout batches took hours to run, onboarding a new marketplace needed two weeks of manual work, and monthly churn had crept up to 4% as larger customers hit the platform's limits.",
    solution:
      "Over five months on the Scale Package we re-architected payouts as an event-driven service, built self-service onboarding with automated compliance checks, and ran a series of pricing and activation experiments.",
    results: [
      "10x transaction volume on the same infrastructure budget",
      "Marketplace onboarding cut from two weeks to two days",
      "Monthly churn reduced from 4% to 1.2%",
      "Series A of $8M closed six months after the engagement",
    ],
    testimonial: {
      quote: "Meridian gave us a platform our customers can grow on. We stopped firefighting and started selling again.",
      author: "Amara Osei",
      role: "Co-founder & CTO, Orbit Pay",
    },
    image: {
      src: "/images/stories/fintech-scale.svg",
      alt: "A payment card in front of a steeply rising growth chart",
      width: 640,
      height: 400,
    },
  },
  {
    id: "healthmonitor",
    title: "From hospital pilot to acquisition in 30 months",
    company: "HealthMonitor",
    industry: "Healthtech · Exit",
    description:
      "HealthMonitor turns data from wearable devices into early warnings for care teams. We co-founded it in 2020 with a cardiologist who had seen too many avoidable readmissions.",
    challenge:
      "Hospitals loved the pilot, but selling to health systems required HIPAA-grade security, integrations with clinical records and evidence that buyers and their auditors could trust.",
    solution:
      "We built the platform with security and audit trails from the first sprint, integrated with the major health-record systems, and prepared the data room, financials and technical documentation well before the first buyer called.",
    results: [
      "Live in 14 hospitals within two years of founding",
      "31% fewer readmissions among monitored patients",
      "Series B raised in 2021",
      "Acquired by a digital-health group after a three-week due diligence",
    ],
    testimonial: {
      quote: "When the acquirer's team arrived, every question already had a written answer. That is why the deal closed on our terms.",
      author: "Lena Hoffmann",
      role: "Founder, HealthMonitor",
    },
    image: {
      src: "/images/stories/health-exit.svg",
      alt: "A medical cross on a rising path that ends at a finish flag",
      width: 640,
      height: 400,
    },
  },
  {
    id: "learnhub",
    title: "An edtech platform launched in eight weeks",
    company: "LearnHub",
    industry: "Edtech · Launch",
    description:
      "LearnHub gives corporate academies one place for cohort courses, video lessons and skills analytics. Its founder came to us with a validated idea and a signed pilot customer.",
    challenge:
      "The pilot customer needed the platform for a 2,000-employee program starting in two months, with single sign-on, video hosting and reporting for its HR team.",
    solution:
      "The MVP Builder team ran four 2-week sprints focused only on what the first cohort needed, reused our foundation for authentication and billing, and launched on schedule with the founder's first hires trained on the codebase.",
    results: [
      "Launched in 8 weeks, on the day the first cohort started",
      "2,000 learners in the first month with 99.9% uptime",
      "Three more enterprise customers signed in the first quarter",
      "Series A raised the following year",
    ],
    testimonial: {
      quote: "We shipped exactly what our first customer needed, on the day they needed it, and nothing we had to throw away later.",
      author: "Daniel Park",
      role: "Founder & CEO, LearnHub",
    },
    image: {
      src: "/images/stories/edtech-launch.svg",
      alt: "A laptop showing a video lesson with a rocket lifting off beside it",
      width: 640,
      height: 400,
    },
  },
] as const satisfies readonly CaseStudy[];

export const successStoriesCta = {
  title: "Your company could be the next story",
  lead: "Whether you are launching, scaling or preparing to sell, there is a package built for your stage.",
  primary: { label: "View Service Packages", href: "/studio/service-packages" },
  secondary: { label: "Explore Our Process", href: "/studio" },
} as const satisfies CallToAction;
