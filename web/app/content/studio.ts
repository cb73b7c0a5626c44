/** Copy of the Studio overview, /studio (docs/requirements.md#studio). */
import type { CallToAction, FeatureCard, Link, PageIntro, ProcessStep, Testimonial } from "./types";
export { studioMeta } from "./page-meta";


export const studioHero = {
  eyebrow: "Our studio",
  title: "How We Build SaaS Companies",
  lead:
    "Since 2020 we have taken 12+ ventures from a first conversation to paying customers, and four of them to an exit. This is the playbook behind them.",
  primary: { label: "Book a Discovery Call", href: "/contact" } satisfies Link,
  secondary: { label: "View Service Packages", href: "/studio/service-packages" } satisfies Link,
} satisfies PageIntro & { primary: Link; secondary: Link };

export const processIntro = {
  title: "Our Five-Step Process",
  lead: "Every engagement follows the same proven path. Join at the step where you are today.",
  stepLabel: "Step",
} as const;

export const processSteps = [
  {
    id: "ideate",
    stepNumber: 1,
    title: "Ideate",
    description:
      "We start with the problem, not the product. Together we map the market, talk to the people who feel the pain and shape an idea worth building.",
    bulletPoints: [
      "Problem discovery workshops with your founding team",
      "Market sizing and competitive landscape analysis",
      "A sharp value proposition and positioning statement",
    ],
    icon: "lightbulb",
    imageSrc: "/images/studio/ideate.svg",
    imageAlt: "A light bulb surrounded by sticky notes from an ideation workshop",
    isReversed: false,
  },
  {
    id: "validate",
    stepNumber: 2,
    title: "Validate",
    description:
      "Before a line of production code is written, we prove that customers want the product and will pay for it, with evidence rather than opinions.",
    bulletPoints: [
      "Twenty or more structured customer interviews",
      "Clickable prototypes tested with real buyers",
      "Pricing experiments and pre-sale commitments",
    ],
    icon: "search",
    imageSrc: "/images/studio/validate.svg",
    imageAlt: "A checklist examined under a magnifying glass next to customer feedback bubbles",
    isReversed: true,
  },
  {
    id: "launch",
    stepNumber: 3,
    title: "Launch",
    description:
      "Senior engineers and designers ship a production-grade MVP in six to eight weeks, on an architecture that will carry you well past your first thousand customers.",
    bulletPoints: [
      "Agile two-week sprints with a demo at the end of each",
      "Cloud infrastructure, security and analytics from day one",
      "A go-to-market plan for your first hundred customers",
    ],
    icon: "rocket",
    imageSrc: "/images/studio/launch.svg",
    imageAlt: "A launch checklist with a rocket taking off beside it",
    isReversed: false,
  },
  {
    id: "scale",
    stepNumber: 4,
    title: "Scale",
    description:
      "Once the product has traction we grow it: tuning acquisition, onboarding and pricing, and hardening the platform for ten times the load.",
    bulletPoints: [
      "Growth experiments on acquisition, activation and retention",
      "Performance, reliability and cost work on the platform",
      "Hiring support to build your own in-house team",
    ],
    icon: "trending-up",
    imageSrc: "/images/studio/scale.svg",
    imageAlt: "A rising revenue chart next to a cluster of cloud servers",
    isReversed: true,
  },
  {
    id: "exit",
    stepNumber: 5,
    title: "Exit",
    description:
      "When the time is right we prepare the company for a buyer: clean numbers, documented systems and introductions to the acquirers who value what you built.",
    bulletPoints: [
      "Financial, legal and technical due-diligence readiness",
      "Valuation analysis and deal positioning",
      "Introductions to strategic acquirers and investors",
    ],
    icon: "trophy",
    imageSrc: "/images/studio/exit.svg",
    imageAlt: "A trophy and a finish flag at the end of a growth path",
    isReversed: false,
  },
] as const satisfies readonly ProcessStep[];

export const whyChoose = {
  title: "Why Choose Meridian Studio",
  lead: "A studio that has built, grown and sold SaaS companies of its own brings more than code to your venture.",
  cards: [
    {
      icon: "code",
      title: "Technical Excellence",
      description:
        "Senior engineers who have scaled platforms to millions of requests a day write every line, review every change and document every system.",
    },
    {
      icon: "zap",
      title: "Speed to Market",
      description:
        "A reusable foundation for authentication, billing and infrastructure lets us ship a production MVP in weeks instead of quarters.",
    },
    {
      icon: "bar-chart",
      title: "Data-Driven Approach",
      description:
        "Every decision, from the first feature to the asking price at exit, is backed by customer evidence and product metrics.",
    },
    {
      icon: "globe",
      title: "Global Perspective",
      description:
        "From our base in San Francisco we have built for customers across North America, Europe and Asia in more than six industries.",
    },
    {
      icon: "users",
      title: "Founder-Centered",
      description:
        "You keep the vision and the control. We work as your co-founding team, with incentives aligned to your long-term success.",
    },
    {
      icon: "sparkles",
      title: "Innovation Focus",
      description:
        "We put new technology such as local-first AI and workflow automation to work where it creates real value for your customers.",
    },
  ] satisfies FeatureCard[],
} as const;

export const studioTestimonials = {
  title: "What Our Clients Say",
  lead: "Founders who went through the process with us.",
  items: [
    {
      quote:
        "The validation step saved us a year. Three of the five features we were sure about turned out not to matter to buyers, and we never built them.",
      author: "Daniel Park",
      role: "Founder & CEO",
      company: "LearnHub",
      rating: 5,
    },
    {
      quote:
        "Meridian's engineers handed over a codebase our own team could run from the first day. No black boxes, no rewrite after the MVP.",
      author: "Amara Osei",
      role: "Co-founder & CTO",
      company: "Orbit Pay",
      rating: 5,
    },
    {
      quote:
        "They treated our company like their own. When the acquirer's due-diligence team arrived, every answer was already written down.",
      author: "Lena Hoffmann",
      role: "Founder",
      company: "HealthMonitor",
      rating: 5,
    },
  ] satisfies Testimonial[],
} as const;

export const studioCta = {
  title: "Ready to start building?",
  lead: "Tell us where your company is today. In a free 30-minute call we will tell you which step we would start with, and why.",
  primary: { label: "Start Your Project", href: "/contact" },
  secondary: { label: "Compare Packages", href: "/studio/service-packages" },
} as const satisfies CallToAction;
