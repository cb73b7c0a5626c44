package store

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"studio/internal/changes"
)

// changeChannel is the PostgreSQL channel on which the servers of one
// database tell each other of committed changes.
const changeChannel = "studio_changes"

// changed publishes a committed change of one row of table. On SQLite this
// server is the only one: the change goes on its bus at once. On PostgreSQL
// it is sent with NOTIFY, which every server following the database (this
// one included, see FollowChanges) hears and puts on its bus; if the NOTIFY
// fails, this server's bus gets it at least.
func (s *DB) changed(table, typ string, key ...string) {
	c := changes.Change{Table: table, Type: typ, Key: key, At: time.Now()}
	if !s.d.postgres {
		s.changes.Publish(c)
		return
	}
	payload, err := json.Marshal(c)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = s.db.ExecContext(ctx, "SELECT pg_notify($1, $2)", changeChannel, string(payload))
	}
	if err != nil {
		s.changes.Publish(c)
	}
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
