// Package realtime is the /realtime/v1 service: the Phoenix-channel
// protocol of @supabase/realtime-js over a websocket, with postgres_changes
// for INSERT and UPDATE on the exposed tables of package query. A channel is
// joined with a staff access token (package auth), checked again on every
// access_token push and every Config.SessionCheck; a session that ended
// closes its channels. Changes come from the store's bus (package
// changes), which names the row; the row is read once, in rest/v1's shape,
// and sent to every channel that wants it.
//
// What one client can hold is bounded (Config): websockets per client
// address, channels per websocket, bindings per channel, and a websocket
// that joins no channel within Config.JoinDeadline is closed.
package realtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"time"

	"github.com/coder/websocket"

	"studio/internal/changes"
	"studio/internal/query"
	"studio/internal/ratelimit"
	"studio/internal/staff"
)

// Prefix is where the service is mounted.
const Prefix = "/realtime/v1"

// Reader reads rows of the exposed tables (store.DB).
type Reader interface {
	Select(ctx context.Context, q *query.Query) (query.Result, error)
}

// Config configures the service.
type Config struct {
	// Feed, when set, pauses and resumes the live changes: while it is not
	// following, every channel with postgres_changes bindings is told so by
	// a system message (status "error"), and told again when it follows
	// (status "ok"), so that a client can read again what it missed.
	Feed changes.Feed
	// AllowedOrigins may open the websocket from other sites; the site's
	// own origin always may.
	AllowedOrigins []string
	// SessionCheck is how often each joined channel's session is checked
	// again; 10 s when zero.
	SessionCheck time.Duration
	Logger       *slog.Logger
	// Connected, when set, is told +1 when a websocket opens and -1 when it
	// closes (for the metrics).
	Connected func(delta int)
	// Limited, when set, is told the name of each limit reached (for the
	// metrics): one of the Limit… constants.
	Limited func(limit string)

	// ClientIP is the address of the client that made r; the server gives
	// the one its trusted proxies name. The TCP peer's when nil.
	ClientIP func(r *http.Request) netip.Addr
	// MaxConnsPerClient caps the open websockets of one client address
	// (an IPv6 client's /64): more are refused with 429. 50 when zero.
	MaxConnsPerClient int
	// MaxChannels caps the channels joined on one websocket; a join past
	// it is refused. 100 (Supabase Realtime's default) when zero.
	MaxChannels int
	// MaxBindings caps the postgres_changes bindings of one channel; a
	// join with more is refused. 100 when zero.
	MaxBindings int
	// JoinDeadline closes a websocket that has not joined a channel (with a
	// valid staff token) this long after it opened. 30 s when zero.
	JoinDeadline time.Duration
}

// Default limits, for a zero Config field.
const (
	DefaultMaxConnsPerClient = 50
	DefaultMaxChannels       = 100
	DefaultMaxBindings       = 100
	DefaultJoinDeadline      = 30 * time.Second
)

// Names of the limits, as Config.Limited is told them.
const (
	LimitConnsPerClient = "connections_per_client"
	LimitChannels       = "channels_per_connection"
	LimitBindings       = "bindings_per_channel"
	LimitJoinDeadline   = "join_deadline"
)

// Limits of the service.
const (
	// idleTimeout closes a connection that sent nothing, not even a
	// heartbeat (realtime-js sends one every 25 s).
	idleTimeout = 60 * time.Second
	// sendQueue is how many messages may wait for a slow client before it
	// is disconnected.
	sendQueue    = 256
	writeTimeout = 10 * time.Second
	readLimit    = 64 << 10
	storeTimeout = 5 * time.Second
)

// Service is the /realtime/v1 handler. Run must be running for changes to
// be sent.
type Service struct {
	store  Reader
	gate   staff.Gate
	bus    *changes.Bus
	cfg    Config
	origin []string // host patterns for the websocket's origin check

	mu        sync.Mutex
	conns     map[*conn]struct{}
	perClient map[string]int // open websockets by ratelimit.ClientKey

	// feedMu orders a join's system messages and a pause or resume told to
	// every channel, so that a channel's last word is the feed's state.
	feedMu sync.Mutex
	paused bool // the feed is not following; guarded by feedMu
}

// New returns the service; st reads rows, bus carries the changes, a
// checks tokens.
func New(st Reader, bus *changes.Bus, gate staff.Gate, cfg Config) *Service {
	if cfg.SessionCheck <= 0 {
		cfg.SessionCheck = 10 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ClientIP == nil {
		cfg.ClientIP = peerIP
	}
	cfg.MaxConnsPerClient = positiveOr(cfg.MaxConnsPerClient, DefaultMaxConnsPerClient)
	cfg.MaxChannels = positiveOr(cfg.MaxChannels, DefaultMaxChannels)
	cfg.MaxBindings = positiveOr(cfg.MaxBindings, DefaultMaxBindings)
	cfg.JoinDeadline = positiveOr(cfg.JoinDeadline, DefaultJoinDeadline)
	s := &Service{store: st, gate: gate, bus: bus, cfg: cfg, conns: map[*conn]struct{}{}, perClient: map[string]int{}}
	s.paused = cfg.Feed != nil && !cfg.Feed.Following()
	for _, o := range cfg.AllowedOrigins {
		if u, err := url.Parse(o); err == nil && u.Host != "" {
			s.origin = append(s.origin, u.Host)
		}
	}
	return s
}

// ServeHTTP serves GET /realtime/v1/websocket: the websocket.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != Prefix+"/websocket" {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"Not found: the websocket is at /realtime/v1/websocket"}` + "\n"))
		return
	}
	vsn := r.URL.Query().Get("vsn")
	if vsn != vsn2 {
		vsn = vsn1
	}
	client := ratelimit.ClientKey(s.cfg.ClientIP(r).String())
	if !s.admit(client) {
		s.limited(LimitConnsPerClient, "realtime: websocket refused, too many open from one client",
			"client", client, "max", s.cfg.MaxConnsPerClient)
		// Supabase Realtime's answer to too many connections.
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":"Too many connections from your address"}` + "\n"))
		return
	}
	defer s.release(client)
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.origin})
	if err != nil {
		return // Accept has answered
	}
	ws.SetReadLimit(readLimit)
	c := &conn{s: s, ws: ws, vsn: vsn, client: client, out: make(chan []byte, sendQueue),
		channels: map[string]*channel{}, joined: make(chan struct{})}
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	s.connected(1)
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		s.connected(-1)
	}()
	c.serve(r.Context())
}

func (s *Service) connected(delta int) {
	if s.cfg.Connected != nil {
		s.cfg.Connected(delta)
	}
}

// Run sends the store's changes to the channels that want them until ctx
// ends, then closes every connection.
func (s *Service) Run(ctx context.Context) {
	sub := s.bus.Subscribe(1024)
	defer sub.Close()
	feedChanged := s.watchFeed()
	dropped := 0
	for {
		select {
		case <-ctx.Done():
			s.closeAll()
			return
		case <-feedChanged:
			feedChanged = s.watchFeed()
		case ch := <-sub.C:
			s.dispatch(ctx, ch)
			if d := sub.Dropped(); d > dropped {
				s.cfg.Logger.Warn("realtime: changes missed (too many at once)", "missed", d-dropped)
				dropped = d
			}
		}
	}
}

// System messages of postgres_changes while the feed pauses and resumes,
// in Supabase Realtime's words where it has them.
const (
	msgSubscribed = "Subscribed to PostgreSQL"
	msgPaused     = "Live changes are paused: this server is not hearing PostgreSQL's changes; " +
		"changes made meanwhile will not be sent, so read again when they resume"
	msgResumed = "Subscribed to PostgreSQL again: live changes resumed; read again what changed while they were paused"
)

// watchFeed tells every channel with postgres_changes bindings when the
// feed has paused or resumed since last told, and returns the channel
// that is closed at the feed's next change (nil without a Feed).
func (s *Service) watchFeed() <-chan struct{} {
	if s.cfg.Feed == nil {
		return nil
	}
	changed := s.cfg.Feed.FollowingChanged() // before Following: no change falls between
	paused := !s.cfg.Feed.Following()
	s.feedMu.Lock()
	defer s.feedMu.Unlock()
	if paused == s.paused {
		return changed
	}
	s.paused = paused
	status, msg := "ok", msgResumed // the store logs the outage: once when it starts, once when it ends
	if paused {
		status, msg = "error", msgPaused
	}
	for _, c := range s.connections() {
		c.mu.Lock()
		for _, ch := range c.channels {
			if len(ch.bindings) > 0 {
				c.pushPostgresStatus(ch, status, msg)
			}
		}
		c.mu.Unlock()
	}
	return changed
}

// connections are the open websockets.
func (s *Service) connections() []*conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	return conns
}

// closeAll closes every connection, all at once, waiting at most a second
// for the clients' closing handshakes.
func (s *Service) closeAll() {
	s.mu.Lock()
	var wg sync.WaitGroup
	for c := range s.conns {
		wg.Go(func() { _ = c.ws.Close(websocket.StatusGoingAway, "server shutting down") })
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

// target is one channel that wants a change, and the ids of its bindings
// that do.
type target struct {
	c       *conn
	ch      *channel
	binding []*binding
}

// dispatch reads the changed row once and sends it to every channel with
// a binding that wants it (and whose filter, if any, the row matches).
func (s *Service) dispatch(ctx context.Context, change changes.Change) {
	t, ok := query.TableStored(change.Table)
	if !ok {
		return
	}
	targets := s.targets(t, change.Type)
	if len(targets) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	key := keyCond(t, change.Key)
	res, err := s.store.Select(ctx, &query.Query{Table: t, Select: t.Columns, Where: key, Limit: 1})
	if err != nil {
		s.cfg.Logger.Error("realtime: read changed row", "table", t.Name, "err", err)
		return
	}
	if len(res.Rows) == 0 {
		return // gone since
	}
	data := changeData(t, change, res.Rows[0])
	matches := map[*query.Cond]bool{}
	for _, tg := range targets {
		var ids []int64
		for _, b := range tg.binding {
			where := b.where[t]
			if where != nil {
				m, seen := matches[where]
				if !seen {
					m = s.matches(ctx, t, key, where)
					matches[where] = m
				}
				if !m {
					continue
				}
			}
			ids = append(ids, b.ID)
		}
		if len(ids) > 0 {
			tg.c.push(tg.ch, eventChanges, mustJSON(struct {
				IDs  []int64         `json:"ids"`
				Data json.RawMessage `json:"data"`
			}{ids, data}))
		}
	}
}

// targets are the channels with bindings that want changes of type typ
// to t.
func (s *Service) targets(t *query.Table, typ string) []target {
	var out []target
	for _, c := range s.connections() {
		c.mu.Lock()
		for _, ch := range c.channels {
			var bs []*binding
			for _, b := range ch.bindings {
				if b.wants(t, typ) {
					bs = append(bs, b)
				}
			}
			if len(bs) > 0 {
				out = append(out, target{c: c, ch: ch, binding: bs})
			}
		}
		c.mu.Unlock()
	}
	return out
}

// matches reports whether the row of key matches where.
func (s *Service) matches(ctx context.Context, t *query.Table, key, where *query.Cond) bool {
	res, err := s.store.Select(ctx, &query.Query{Table: t, Select: t.Columns[:1], Limit: 1,
		Where: &query.Cond{Op: query.OpAnd, Conds: []*query.Cond{key, where}}})
	if err != nil {
		s.cfg.Logger.Error("realtime: match filter", "table", t.Name, "err", err)
		return false
	}
	return len(res.Rows) == 1
}

// keyCond selects the row whose key is values.
func keyCond(t *query.Table, values []string) *query.Cond {
	and := &query.Cond{Op: query.OpAnd}
	for i, name := range t.Key {
		col, _ := t.Column(name)
		v := ""
		if i < len(values) {
			v = values[i]
		}
		and.Conds = append(and.Conds, &query.Cond{Op: query.OpEq, Column: col, Value: v})
	}
	return and
}

// authorize checks a token for a channel.
func (s *Service) authorize(ctx context.Context, token string) (staff.Member, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	return s.gate.Authorize(ctx, token)
}
