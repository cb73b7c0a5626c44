package store

import (
	"context"
	"database/sql"

	"studio/internal/changes"
	"studio/internal/signup"
)

// Sign-ups (package signup): product waitlists and the newsletter.

// JoinWaitlist adds e unless its address is already on the product's
// waitlist; created reports which.
func (s *DB) JoinWaitlist(ctx context.Context, e signup.WaitlistEntry) (created bool, err error) {
	return s.insertOnce(ctx, "insert waitlist entry", change("waitlist_entries", changes.Insert, e.ProductID, e.Email),
		`INSERT INTO waitlist_entries (product_id, email, joined_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
		e.ProductID, e.Email, s.d.timeArg(e.JoinedAt))
}

// ListWaitlist returns every waitlist entry, by product, oldest first.
func (s *DB) ListWaitlist(ctx context.Context) ([]signup.WaitlistEntry, error) {
	var out []signup.WaitlistEntry
	err := s.query(ctx, "list waitlist", `SELECT product_id, email, joined_at FROM waitlist_entries
		ORDER BY product_id, joined_at, email`, nil, func(rows *sql.Rows) error {
		var e signup.WaitlistEntry
		if err := rows.Scan(&e.ProductID, &e.Email, s.d.timeDest(&e.JoinedAt)); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// Subscribe adds sub unless its address is already subscribed; created
// reports which.
func (s *DB) Subscribe(ctx context.Context, sub signup.Subscriber) (created bool, err error) {
	return s.insertOnce(ctx, "insert newsletter subscriber", change("newsletter_subscribers", changes.Insert, sub.Email),
		`INSERT INTO newsletter_subscribers (email, subscribed_at) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		sub.Email, s.d.timeArg(sub.SubscribedAt))
}

// insertOnce runs an INSERT … ON CONFLICT DO NOTHING; created reports
// whether it added the row, which is then announced as c.
func (s *DB) insertOnce(ctx context.Context, op string, c changes.Change, query string, args ...any) (created bool, err error) {
	err = s.writeChanges(ctx, op, func(ctx context.Context, tx *sql.Tx) ([]changes.Change, error) {
		res, err := tx.ExecContext(ctx, s.d.rebind(query), args...)
		if err != nil {
			return nil, err
		}
		n, err := res.RowsAffected()
		if created = n == 1; !created {
			return nil, err
		}
		return []changes.Change{c}, err
	})
	return created, err
}

// ListSubscribers returns every newsletter subscriber, oldest first.
func (s *DB) ListSubscribers(ctx context.Context) ([]signup.Subscriber, error) {
	var out []signup.Subscriber
	err := s.query(ctx, "list newsletter subscribers", `SELECT email, subscribed_at FROM newsletter_subscribers
		ORDER BY subscribed_at, email`, nil, func(rows *sql.Rows) error {
		var sub signup.Subscriber
		if err := rows.Scan(&sub.Email, s.d.timeDest(&sub.SubscribedAt)); err != nil {
			return err
		}
		out = append(out, sub)
		return nil
	})
	return out, err
}
