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
)

// Change is one committed insert or update of one row.
type Change struct {
	Table string   // the store's table: contact_messages, waitlist_entries, newsletter_subscribers
	Type  string   // Insert or Update
	Key   []string // the row's primary key, in the key's column order
	At    time.Time
	// Origin names the server that committed it (set by the store), so
	// that a server can tell its own changes when they come back to it.
	Origin string `json:",omitempty"`
}

// Bus hands every published change to every subscriber. It never blocks a
// publisher: a subscriber that falls more than its buffer behind misses
// changes and is told so by its Dropped count. The zero Bus is ready.
type Bus struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
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

// Publish hands c to every subscriber.
func (b *Bus) Publish(c Change) {
	b.mu.Lock()
	defer b.mu.Unlock()
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
