// Package changes carries the news that a row of the studio's data was
// inserted or updated, from the store that committed it to those who listen
// (the realtime/v1 service). A Change names the row; a listener reads the
// row itself, so the news can also cross processes (PostgreSQL NOTIFY)
// without carrying data.
package changes

import (
	"sync"
	"time"
)

// Types of change.
const (
	Insert = "INSERT"
	Update = "UPDATE"
	Delete = "DELETE"
)

// Change is one committed insert or update of one row.
type Change struct {
	Table string   // the store's table: contact_messages, storage_objects, …
	Type  string   // Insert, Update or Delete
	Key   []string // the row's primary key, in the key's column order
	At    time.Time
	// Origin names the server that committed it (set by the store), so
	// that a server can tell its own changes when they come back to it.
	Origin string `json:",omitempty"`
}

// Feed tells whether a server's bus hears every server's changes live
// (store.DB on PostgreSQL stops hearing the other servers' while its
// LISTEN connection is down; on SQLite there are no other servers).
type Feed interface {
	Following() bool
	// FollowingChanged is closed the next time Following changes.
	FollowingChanged() <-chan struct{}
}

// Bus hands every published change to every subscriber. It never blocks a
// publisher: a subscriber that falls more than its buffer behind misses
// changes and is told so by its Dropped count. The zero Bus is ready.
type Bus struct {
	mu       sync.Mutex
	subs     map[*Subscription]struct{}
	watchers []func(Change)
}

// Subscription is one listener's channel of changes.
type Subscription struct {
	C   <-chan Change
	c   chan Change
	bus *Bus

	mu      sync.Mutex
	dropped int
}

// Subscribe returns a subscription whose channel holds up to buffer
// changes not yet read.
func (b *Bus) Subscribe(buffer int) *Subscription {
	c := make(chan Change, buffer)
	s := &Subscription{C: c, c: c, bus: b}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.subs == nil {
		b.subs = map[*Subscription]struct{}{}
	}
	b.subs[s] = struct{}{}
	return s
}

// Close ends the subscription and closes its channel.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	if _, ok := s.bus.subs[s]; ok {
		delete(s.bus.subs, s)
		close(s.c)
	}
}

// Dropped is how many changes the subscription missed because its buffer
// was full.
func (s *Subscription) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Watch calls f with every change published from now on, in the
// publisher's goroutine before Publish returns, so that a server's own
// commit has reached f when the write returns. f must be quick and never
// block; it is never dropped from.
func (b *Bus) Watch(f func(Change)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.watchers = append(b.watchers, f)
}

// Publish hands c to every watcher, then to every subscriber.
func (b *Bus) Publish(c Change) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, f := range b.watchers {
		f(c)
	}
	for s := range b.subs {
		select {
		case s.c <- c:
		default:
			s.mu.Lock()
			s.dropped++
			s.mu.Unlock()
		}
	}
}
