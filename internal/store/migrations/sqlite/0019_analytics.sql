-- What the public site did (package analytics, docs/analytics.md): no
-- address, user agent or other hash input is ever stored. A visitor is a
-- keyed hash under the day's salt; the salt of a day is deleted after the
-- next day, and then no one can tell whose the hash was. Times are Unix
-- seconds. Raw rows are kept --analytics-retention days.
-- Safe with the previous release still running: new tables it never reads.
CREATE TABLE analytics_salts (
    day  TEXT PRIMARY KEY,   -- UTC, 2006-01-02
    salt BLOB NOT NULL
) STRICT;

-- A visit: one visitor's views with no gap over 30 minutes. Its source,
-- campaign and device are its first view's.
CREATE TABLE analytics_visits (
    id           INTEGER PRIMARY KEY,
    visitor      TEXT NOT NULL,
    started_at   INTEGER NOT NULL,
    last_at      INTEGER NOT NULL,
    entry_path   TEXT NOT NULL,
    exit_path    TEXT NOT NULL,
    views        INTEGER NOT NULL,
    source       TEXT NOT NULL,   -- '' is direct
    utm_source   TEXT NOT NULL,
    utm_medium   TEXT NOT NULL,
    utm_campaign TEXT NOT NULL,
    browser      TEXT NOT NULL,
    os           TEXT NOT NULL,
    device       TEXT NOT NULL,
    country      TEXT NOT NULL
) STRICT;
CREATE INDEX analytics_visits_visitor ON analytics_visits (visitor, last_at);
CREATE INDEX analytics_visits_started ON analytics_visits (started_at);

CREATE TABLE analytics_views (
    visit_id INTEGER NOT NULL,
    at       INTEGER NOT NULL,
    path     TEXT NOT NULL
) STRICT;
CREATE INDEX analytics_views_at ON analytics_views (at);

-- A goal reached, in the visit it was reached in (none when the visitor
-- was not seen on a page within 30 minutes).
CREATE TABLE analytics_conversions (
    visit_id INTEGER,
    visitor  TEXT NOT NULL,
    at       INTEGER NOT NULL,
    goal     TEXT NOT NULL
) STRICT;
CREATE INDEX analytics_conversions_at ON analytics_conversions (at);

-- Requests not counted, tallied per day and reason (bot, gpc, dnt,
-- prefetch_not_shown, dropped).
CREATE TABLE analytics_not_counted (
    day    TEXT NOT NULL,
    reason TEXT NOT NULL,
    count  INTEGER NOT NULL,
    PRIMARY KEY (day, reason)
) STRICT;

-- One row, touched by each write of counts (and at least once a minute):
-- the console's analytics screen hears over realtime/v1 that they changed.
CREATE TABLE analytics_live (
    id         TEXT PRIMARY KEY,   -- 'now'
    updated_at TEXT NOT NULL
) STRICT;
