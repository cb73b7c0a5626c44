-- Token buckets of the rate limits, shared by every server on one store
-- (ratelimit.Shared): key is the limit's name and the client's address.
CREATE TABLE rate_buckets (
    key    TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at_ns  BIGINT NOT NULL, -- when tokens was right, Unix nanoseconds
    full_ns BIGINT NOT NULL -- when the bucket is full again (it may then be forgotten)
);

CREATE INDEX rate_buckets_full ON rate_buckets (full_ns);
