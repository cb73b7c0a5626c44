package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
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
// never a change that was rolled back. Each carries this server's origin:
// its own changes reach its bus by publishOwn, whether or not it listens,
// and their NOTIFY is dropped when it comes back.
func (s *DB) announce(ctx context.Context, tx *sql.Tx, cs []changes.Change) error {
	if len(cs) == 0 {
		return nil
	}
	payloads := make([]string, len(cs))
	for i, c := range cs {
		c.Origin = s.origin()
		p, err := json.Marshal(c)
		if err != nil {
			return err
		}
		payloads[i] = string(p)
	}
	_, err := tx.ExecContext(ctx, "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", changeChannel, payloads)
	return err
}

// publishOwn puts the changes this server has just committed on its bus:
// on SQLite it is the only server, and on PostgreSQL its own changes must
// not wait for (or be lost with) its LISTEN connection.
func (s *DB) publishOwn(cs []changes.Change) {
	for _, c := range cs {
		c.Origin = s.origin()
		s.changes.Publish(c)
	}
}

// origin names this server (this DB) in the changes it announces.
func (s *DB) origin() string {
	s.originOnce.Do(func() {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		s.originID = hex.EncodeToString(b)
	})
	return s.originID
}

// change is a change of one row of table, made now.
func change(table, typ string, key ...string) changes.Change {
	return changes.Change{Table: table, Type: typ, Key: key, At: time.Now()}
}

// Retrying the change feed: a lost LISTEN connection is replaced at once,
// and while PostgreSQL refuses, a new one is tried every feedRetry, each
// given at most feedConnectTimeout (a frozen server accepts connections it
// never answers). So the feed listens again at most about a second after
// PostgreSQL answers.
const (
	feedRetry          = 500 * time.Millisecond
	feedConnectTimeout = time.Second
)

// FollowChanges puts the changes the other servers of a PostgreSQL store
// commit on this server's bus, until ctx ends: it listens for their NOTIFY
// on a connection of its own, and connects again when that connection is
// lost (see feedRetry). Changes other servers commit while it is not
// listening are not seen: Following and FollowingChanged tell when that is.
// An outage is logged once when it starts and once when it ends. On SQLite
// it returns at once: the changes are all this server's own (publishOwn).
func (s *DB) FollowChanges(ctx context.Context, logger *slog.Logger) {
	if !s.d.postgres {
		return
	}
	var wait time.Duration
	var lostAt time.Time
	for ctx.Err() == nil {
		err := s.listen(ctx, func() {
			wait = 0
			if !lostAt.IsZero() {
				logger.Info("store: following other servers' changes again", "after", time.Since(lostAt).Round(time.Millisecond).String())
				lostAt = time.Time{}
			}
		})
		if ctx.Err() != nil {
			return
		}
		if lostAt.IsZero() {
			lostAt = time.Now()
			logger.Warn("store: not following other servers' changes; connecting again", "every", feedRetry.String(), "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = feedRetry
	}
}

// listen follows the changes on one connection until it fails or ctx ends;
// listening is called once it listens.
func (s *DB) listen(ctx context.Context, listening func()) error {
	conn, err := s.connectListening(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	listening()
	s.setFollowing(true)
	defer s.setFollowing(false)
	own := s.origin()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		var c changes.Change
		if json.Unmarshal([]byte(n.Payload), &c) == nil && c.Origin != own {
			s.changes.Publish(c)
		}
	}
}

// connectListening opens a connection that listens on changeChannel,
// giving up after feedConnectTimeout.
func (s *DB) connectListening(ctx context.Context) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, feedConnectTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+changeChannel); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
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

// FollowingChanged returns a channel that is closed the next time
// Following changes; call it again for the change after that.
func (s *DB) FollowingChanged() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.followingChanged == nil {
		s.followingChanged = make(chan struct{})
	}
	return s.followingChanged
}

func (s *DB) setFollowing(v bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.following == v {
		return
	}
	s.following = v
	if s.followingChanged != nil {
		close(s.followingChanged)
		s.followingChanged = nil
	}
}
