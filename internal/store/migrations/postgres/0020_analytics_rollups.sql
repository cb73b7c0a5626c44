-- What the public site did, kept for years after the raw views are gone
-- (docs/analytics.md "What is kept"). Each UTC day is rolled up for good
-- once it is over, and today every few minutes: its hours (the chart) and
-- its counts per value of each dimension (the lists). A visitor is a
-- day's hash, so a day's visitors add up across days. Times are Unix
-- seconds.
-- Safe with the previous release still running: new tables it never reads.
CREATE TABLE analytics_hours (
    hour     BIGINT PRIMARY KEY,   -- its start
    views    BIGINT NOT NULL,
    visitors BIGINT NOT NULL       -- with a view in the hour
);

-- dimension '' (value '') is the day's totals; 'goal' '' is any goal.
-- The other dimensions: page, entry_page, exit_page, source ('' is
-- direct), campaign (utm source, medium and campaign joined by tabs),
-- browser, os, device, country, goal.
CREATE TABLE analytics_days (
    dimension   TEXT NOT NULL,
    day         BIGINT NOT NULL,   -- its start
    value       TEXT NOT NULL,
    visitors    BIGINT NOT NULL,
    visits      BIGINT NOT NULL,   -- begun that day
    views       BIGINT NOT NULL,
    bounces     BIGINT NOT NULL,   -- visits of one view
    duration    BIGINT NOT NULL,   -- seconds, summed over the visits
    conversions BIGINT NOT NULL,
    PRIMARY KEY (dimension, day, value)
);

-- The same per UTC month, written when its last day is rolled up for
-- good: a year's list sums twelve months, not 365 days.
CREATE TABLE analytics_months (
    dimension   TEXT NOT NULL,
    month       BIGINT NOT NULL,   -- its first day's start
    value       TEXT NOT NULL,
    visitors    BIGINT NOT NULL,
    visits      BIGINT NOT NULL,
    views       BIGINT NOT NULL,
    bounces     BIGINT NOT NULL,
    duration    BIGINT NOT NULL,
    conversions BIGINT NOT NULL,
    PRIMARY KEY (dimension, month, value)
);

-- One row: the days before rolled_through are rolled up for good; the
-- day of provisional_through is rolled up until then, again every few
-- minutes; the raw rows before raw_from are deleted (raw_from <=
-- rolled_through).
CREATE TABLE analytics_rollup_state (
    id                  TEXT PRIMARY KEY,   -- 'state'
    rolled_through      BIGINT NOT NULL,
    provisional_through BIGINT NOT NULL,
    raw_from            BIGINT NOT NULL
);
INSERT INTO analytics_rollup_state (id, rolled_through, provisional_through, raw_from) VALUES ('state', 0, 0, 0);

-- "Visitors now" and pruning look visits up by their last view.
CREATE INDEX analytics_visits_last ON analytics_visits (last_at);
