/** Copy of /about (docs/requirements.md#about). */
import { studio } from "./site";
import type { CallToAction, PageIntro, Stat, TeamMember, Value } from "./types";
export { aboutMeta } from "./page-meta";


export const aboutHero = {
  eyebrow: "About us",
  title: "We Build Companies, Not Just Software",
  lead: `${studio.name} is a venture studio for cloud software, founded in ${studio.founded} in San Francisco. We partner with founders from the first idea to the final handshake.`,
} as const satisfies PageIntro;

export const story = {
  title: "Our Story",
  paragraphs: [
    `${studio.name} began in ${studio.founded}, when a small group of engineers and operators who had built and sold SaaS companies of their own noticed the same pattern again and again: great founders losing years to avoidable mistakes in product, hiring and fundraising.`,
    "We set out to build the partner we had wished for. Instead of advising from the sidelines, we join as a co-founding team: we validate the idea, write the code, find the first customers and stay until the company is ready to stand on its own or to be sold.",
    "Since then we have launched 12+ ventures across 6+ industries, from healthtech to legal tech. Our founders have raised more than $25M, and four of our companies have been acquired. Along the way we started building products of our own, such as AURION, our private AI assistant.",
  ],
  stats: [
    { value: String(studio.founded), label: "Founded" },
    { value: "12+", label: "Ventures" },
    { value: "4", label: "Exits" },
    { value: "$25M+", label: "Funding" },
  ] satisfies Stat[],
} as const;

export const values = {
  title: "Our Values",
  lead: "Four principles guide how we choose our ventures and how we work with founders.",
  items: [
    {
      icon: "handshake",
      title: "Founders First",
      description:
        "The company belongs to its founders. We give honest advice, share the risk and measure our success by theirs.",
    },
    {
      icon: "target",
      title: "Evidence Over Opinion",
      description: "We test ideas with real customers and real numbers before we invest time and money in building them.",
    },
    {
      icon: "code",
      title: "Craft That Lasts",
      description: "We write software that the next team can understand, run and extend, because our companies outlive our engagements.",
    },
    {
      icon: "eye",
      title: "Radical Transparency",
      description: "Fixed quotes, open backlogs and plain-spoken progress reports. You always know where your money goes and why.",
    },
  ] satisfies Value[],
} as const;

export const team = {
  title: "Meet the Team",
  lead: "Operators, engineers and designers who have been founders themselves.",
  portraitAlt: (name: string) => `Portrait of ${name}`,
  members: [
    {
      name: "Alex Morgan",
      role: "Founder & Managing Partner",
      bio: "Alex co-founded two SaaS companies before starting Meridian in 2020, one of them acquired by a public software company. He leads the studio's strategy and sits on the boards of its ventures.",
      image: "/images/team/alex-morgan.svg",
    },
    {
      name: "Priya Natarajan",
      role: "Partner, Engineering",
      bio: "Priya spent a decade building distributed systems at scale, most recently as VP of Engineering at a data-infrastructure startup. She leads Meridian's engineering teams and architecture reviews.",
      image: "/images/team/priya-natarajan.svg",
    },
    {
      name: "Daniel Okafor",
      role: "Partner, Growth",
      bio: "Daniel has taken B2B products from their first customer to eight-figure revenue as a growth and revenue leader. He runs go-to-market, pricing and fundraising support for our ventures.",
      image: "/images/team/daniel-okafor.svg",
    },
    {
      name: "Sofia Lindqvist",
      role: "Head of Design",
      bio: "Sofia has designed products used by millions, from consumer apps to complex enterprise tools. She leads research, product design and brand for every Meridian venture.",
      image: "/images/team/sofia-lindqvist.svg",
    },
  ] satisfies TeamMember[],
} as const;

export const aboutCta = {
  title: "Let's build something together",
  lead: "Have an idea, a product or a company you want to take further? We would like to hear about it.",
  primary: { label: "Get in Touch", href: "/contact" },
  secondary: { label: "See Our Ventures", href: "/studio/venture-portfolio" },
} as const satisfies CallToAction;
