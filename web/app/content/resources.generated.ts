// Generated from the frontmatter of app/content/resources/*.md by `npm --prefix web run generate`;
// app/content/resources.test.ts and the build fail when it is out of date. Do not edit.
import type { ResourceFrontmatter } from "./resource-schema";

export const frontmatterBySlug: Record<string, ResourceFrontmatter> = {
  "ai-in-saas": {
    "title": "AI in SaaS: Where It Earns Its Keep",
    "description": "Not every product needs a chatbot. Four places where AI features reliably create value for SaaS customers, and three where they quietly destroy trust.",
    "date": "2025-02-25",
    "author": "Alex Morgan",
    "cover": "A neural network connecting to application windows",
    "category": "blog",
    "readTime": "8 min read"
  },
  "building-for-exit-podcast": {
    "title": "Building for Exit: Start With the End in Mind",
    "description": "Elena Rodriguez on selling Vertex Data: why a clean data room shortened due diligence from months to weeks, and what she would do differently.",
    "date": "2025-03-04",
    "author": "Daniel Okafor",
    "cover": "A podcast microphone in front of a sound wave",
    "category": "podcast",
    "listenTime": "42 min listen"
  },
  "customer-centric-culture": {
    "title": "Building a Customer-Centric Culture",
    "description": "Sarah Chen of Quanta Analytics on putting every engineer on support rotation, running weekly customer calls, and turning feedback into the roadmap.",
    "date": "2024-11-19",
    "author": "Daniel Okafor",
    "cover": "A team gathered around a customer at the centre",
    "category": "podcast",
    "listenTime": "38 min listen"
  },
  "due-diligence-checklist": {
    "title": "Due Diligence Checklist",
    "description": "The 60 questions acquirers and investors ask, grouped by corporate, financial, legal, technical and people topics, so your data room is ready before they ask.",
    "date": "2025-01-14",
    "author": "Sofia Lindqvist",
    "cover": "A clipboard with a ticked checklist",
    "category": "template",
    "downloadSize": "Markdown, 4 KB",
    "download": {
      "fileName": "due-diligence-checklist.md",
      "kind": "Markdown checklist"
    }
  },
  "financial-model-template": {
    "title": "SaaS Financial Model Template",
    "description": "A 24-month revenue and cash model for early-stage SaaS: MRR, churn, CAC, gross margin, burn and runway, ready to open in Excel, Numbers or Google Sheets.",
    "date": "2025-02-10",
    "author": "Sofia Lindqvist",
    "cover": "A spreadsheet with revenue rows and a bar chart",
    "category": "template",
    "downloadSize": "CSV, 3 KB",
    "download": {
      "fileName": "saas-financial-model.csv",
      "kind": "CSV spreadsheet"
    }
  },
  "future-of-b2b-saas": {
    "title": "The Future of B2B SaaS",
    "description": "Where B2B software goes next: usage-based pricing, vertical AI agents, local-first architecture and the end of the seat licence, debated by two operators.",
    "date": "2024-10-29",
    "author": "Daniel Okafor",
    "cover": "A horizon of cloud shapes with a rising path",
    "category": "podcast",
    "listenTime": "45 min listen"
  },
  "idea-to-ipo": {
    "title": "From Idea to IPO: A Founder's Journey",
    "description": "Marcus Johnson retraces Helix CRM's twelve years from a spreadsheet macro to a public company: the near-death moments, the pivots and the hires that mattered.",
    "date": "2024-10-08",
    "author": "Daniel Okafor",
    "cover": "A path from a light bulb to a stock market bell",
    "category": "podcast",
    "listenTime": "51 min listen"
  },
  "onboarding-best-practices": {
    "title": "Onboarding Best Practices: The First Ten Minutes",
    "description": "Most trial users decide in the first session. Seven onboarding patterns that get new users to their first success faster, with the metrics to prove it.",
    "date": "2024-12-10",
    "author": "Daniel Okafor",
    "cover": "A guided product tour with numbered steps",
    "category": "blog",
    "readTime": "7 min read"
  },
  "pitch-deck-template": {
    "title": "SaaS Pitch Deck Template",
    "description": "The twelve-slide outline we use with our ventures for seed and Series A rounds, with prompts for every slide and the SaaS metrics investors look for first.",
    "date": "2024-09-17",
    "author": "Alex Morgan",
    "cover": "A presentation slide with a chart and bullet points",
    "category": "template",
    "downloadSize": "Markdown, 2 KB",
    "download": {
      "fileName": "saas-pitch-deck-outline.md",
      "kind": "Markdown outline"
    }
  },
  "product-led-growth": {
    "title": "Product-Led Growth: A Practical Guide for B2B Teams",
    "description": "How to let the product do the selling: choosing between free trial and freemium, designing activation milestones and handing warm accounts to sales.",
    "date": "2025-01-28",
    "author": "Priya Natarajan",
    "cover": "A product screen with a funnel of users flowing through it",
    "category": "blog",
    "readTime": "11 min read"
  },
  "roadmap-framework": {
    "title": "Product Roadmap Framework",
    "description": "A RICE scoring sheet and a now–next–later roadmap in one spreadsheet, so every feature request gets the same fair hearing before it gets a quarter.",
    "date": "2024-08-27",
    "author": "Priya Natarajan",
    "cover": "A roadmap timeline with milestones in three lanes",
    "category": "template",
    "downloadSize": "CSV, 2 KB",
    "download": {
      "fileName": "product-roadmap-framework.csv",
      "kind": "CSV spreadsheet"
    }
  },
  "saas-founders-playbook": {
    "title": "The SaaS Founder's Playbook",
    "description": "Our complete guide from first idea to exit: validating demand, building the MVP, finding product–market fit, scaling revenue and preparing the company for a buyer.",
    "date": "2025-04-22",
    "author": "Alex Morgan",
    "cover": "An open playbook with a growth chart on its pages",
    "category": "guide",
    "readTime": "25 min read"
  },
  "scaling-strategies": {
    "title": "Scaling Strategies That Work: From $1M to $10M ARR",
    "description": "The playbook for the messy middle: when to hire, what to automate, and how to keep growth efficient once the founders can no longer close every deal.",
    "date": "2025-03-18",
    "author": "Priya Natarajan",
    "cover": "A staircase of bars rising towards a growth target",
    "category": "blog",
    "readTime": "9 min read"
  }
};
