package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"studio/internal/changes"
)

// changeChannel is the PostgreSQL channel on which the servers of one
// database tell each other of committed changes.
const changeChannel = "studio_changes"

// announce tells every server of the store about changes that tx makes. On
// PostgreSQL it sends them with NOTIFY inside tx, which PostgreSQL delivers
// to every server following the database (this one included, see
// FollowChanges) when, and only if, tx commits: no extra round trip, and
// never a change that was rolled back. On SQLite this server is the only
// one: the changes go on its bus once the write has committed (see
// writeChanges).
func (s *DB) announce(ctx context.Context, tx *sql.Tx, cs []changes.Change) error {
	if len(cs) == 0 {
		return nil
	}
	payloads := make([]string, len(cs))
	for i, c := range cs {
		p, err := json.Marshal(c)
		if err != nil {
			return err
		}
		payloads[i] = string(p)
	}
	_, err := tx.ExecContext(ctx, "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", changeChannel, payloads)
	return err
}

// change is a change of one row of table, made now.
func change(table, typ string, key ...string) changes.Change {
	return changes.Change{Table: table, Type: typ, Key: key, At: time.Now()}
}

// FollowChanges puts the changes every server of a PostgreSQL store commits
// on this server's bus, until ctx ends: it listens for their NOTIFY on a
// connection of its own, and connects again (after 1 s, doubling to 30 s)
// when that connection is lost. Changes committed while it is not
// connected are not seen. On SQLite it returns at once: changed publishes.
func (s *DB) FollowChanges(ctx context.Context, logger *slog.Logger) {
	if !s.d.postgres {
		return
	}
	wait := time.Second
	for ctx.Err() == nil {
		err := s.listen(ctx, func() { wait = time.Second })
		if ctx.Err() != nil {
			return
		}
		logger.Warn("store: not following other servers' changes; connecting again", "in", wait.String(), "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// listen follows the changes on one connection until it fails or ctx ends;
// listening is called once it listens.
func (s *DB) listen(ctx context.Context, listening func()) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+changeChannel); err != nil {
		return err
	}
	listening()
	s.setFollowing(true)
	defer s.setFollowing(false)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		var c changes.Change
		if json.Unmarshal([]byte(n.Payload), &c) == nil {
			s.changes.Publish(c)
		}
	}
}

// Following reports whether this server hears the other servers' changes:
// always on SQLite, on PostgreSQL while FollowChanges is listening.
func (s *DB) Following() bool {
	if !s.d.postgres {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.following
}

func (s *DB) setFollowing(v bool) {
	s.mu.Lock()
	s.following = v
	s.mu.Unlock()
}
