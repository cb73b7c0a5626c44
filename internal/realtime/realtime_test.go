package realtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"studio/internal/auth/authtest"
	"studio/internal/contact"
	"studio/internal/query"
	"studio/internal/realtime"
	"studio/internal/server"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// fixture is the realtime service on a SQLite store with a real auth
// service, served over HTTP, and a signed-in member of staff.
type fixture struct {
	t     *testing.T
	db    *store.DB
	url   string
	token string
}

func newFixture(t *testing.T, cfg realtime.Config) *fixture {
	t.Helper()
	db, authSvc := authtest.New(t, storetest.Engines()[0])
	svc := realtime.New(db, db.Changes(), authSvc, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); svc.Run(ctx) }()
	srv := httptest.NewServer(svc)
	t.Cleanup(func() { cancel(); <-done; srv.Close() })
	return &fixture{t: t, db: db, url: "ws" + strings.TrimPrefix(srv.URL, "http") + "/realtime/v1/websocket",
		token: authtest.SignIn(t, db, authSvc, "ada@studio.test")}
}

// client is one websocket speaking serializer 2.0.0.
type client struct {
	t  *testing.T
	ws *websocket.Conn
}

func (f *fixture) dial(query string) *client {
	f.t.Helper()
	c, _, err := f.dialFrom("", query)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// dialFrom opens a websocket as the client at addr (X-Forwarded-For, for a
// service that trusts the loopback proxy; none when empty); resp is the
// refusal, when there is one.
func (f *fixture) dialFrom(addr, query string) (c *client, resp *http.Response, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	opts := &websocket.DialOptions{HTTPHeader: http.Header{}}
	if addr != "" {
		opts.HTTPHeader.Set("X-Forwarded-For", addr)
	}
	ws, resp, err := websocket.Dial(ctx, f.url+query, opts)
	if err != nil {
		return nil, resp, err
	}
	f.t.Cleanup(func() { ws.CloseNow() })
	return &client{t: f.t, ws: ws}, resp, nil
}

func (c *client) send(raw string) {
	c.t.Helper()
	if err := c.ws.Write(context.Background(), websocket.MessageText, []byte(raw)); err != nil {
		c.t.Fatal(err)
	}
}

// next reads the next message as [join_ref, ref, topic, event, payload].
func (c *client) next() (topic, event string, payload map[string]any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, data, err := c.ws.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m [5]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatalf("not a 2.0.0 message: %s", data)
	}
	_ = json.Unmarshal(m[2], &topic)
	_ = json.Unmarshal(m[3], &event)
	_ = json.Unmarshal(m[4], &payload)
	return topic, event, payload
}

func join(topic, payload string) string {
	return `["1","1","` + topic + `","phx_join",` + payload + `]`
}

func inbox(token string) string {
	return `{"config":{"postgres_changes":[{"event":"INSERT","schema":"public","table":"contact_messages"}]},"access_token":"` + token + `"}`
}

// TestJoinRefusals: every join that may not be answered is an error reply
// with a reason, and the connection stays usable.
func TestJoinRefusals(t *testing.T) {
	f := newFixture(t, realtime.Config{})
	c := f.dial("?vsn=2.0.0")
	changes := func(filter string) string {
		return `{"config":{"postgres_changes":[` + filter + `]},"access_token":"` + f.token + `"}`
	}
	tests := []struct{ name, topic, payload, reason string }{
		{"no token", "realtime:inbox", `{"config":{}}`, "Sign in first"},
		{"a token that does not verify", "realtime:inbox", inbox("x.y.z"), "Invalid access token"},
		{"a topic of another kind", "inbox", inbox(f.token), "Topics are realtime:"},
		{"a payload that is not an object", "realtime:inbox", `"hello"`, "join payload"},
		{"an unknown event", "realtime:inbox", changes(`{"event":"TRUNCATE","schema":"public","table":"contact_messages"}`), "event \"TRUNCATE\""},
		{"another schema", "realtime:inbox", changes(`{"event":"*","schema":"auth","table":"users"}`), "schema \"auth\""},
		{"a table that is not exposed", "realtime:inbox", changes(`{"event":"*","schema":"public","table":"outbox"}`), "not an exposed table"},
		{"a filter without =", "realtime:inbox", changes(`{"event":"*","schema":"public","table":"contact_messages","filter":"spam"}`), "want column=operator.value"},
		{"a filter on an unknown column", "realtime:inbox", changes(`{"event":"*","schema":"public","table":"contact_messages","filter":"secret=eq.1"}`), "does not exist"},
		{"a filter with a bad value", "realtime:inbox", changes(`{"event":"*","schema":"public","table":"contact_messages","filter":"spam=eq.maybe"}`), "boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.send(join(tt.topic, tt.payload))
			topic, event, p := c.next()
			resp, _ := p["response"].(map[string]any)
			if topic != tt.topic || event != "phx_reply" || p["status"] != "error" || !strings.Contains(resp["reason"].(string), tt.reason) {
				t.Errorf("reply = %s %s %v, want an error with %q", topic, event, p, tt.reason)
			}
		})
	}
	c.send(`[null,"9","phoenix","heartbeat",{}]`)
	if topic, event, p := c.next(); topic != "phoenix" || event != "phx_reply" || p["status"] != "ok" {
		t.Errorf("heartbeat after the refusals = %s %s %v", topic, event, p)
	}
}

// TestChannelLifecycle: join, the system message, a change, an
// access_token push, an unsupported event, leave; then a sign-out closes
// the channel and the socket.
func TestChannelLifecycle(t *testing.T) {
	f := newFixture(t, realtime.Config{SessionCheck: 100 * time.Millisecond})
	c := f.dial("?vsn=2.0.0&apikey=anon")
	c.send(join("realtime:inbox", inbox(f.token)))
	_, event, p := c.next()
	resp, _ := p["response"].(map[string]any)
	pcs, _ := resp["postgres_changes"].([]any)
	if event != "phx_reply" || p["status"] != "ok" || len(pcs) != 1 {
		t.Fatalf("join reply = %s %v", event, p)
	}
	id := pcs[0].(map[string]any)["id"]
	if _, event, p = c.next(); event != "system" || p["message"] != "Subscribed to PostgreSQL" || p["status"] != "ok" {
		t.Errorf("after the join = %s %v", event, p)
	}

	m := contact.Message{ID: "m01", ReceivedAt: time.Now(), Name: "Ada", Email: "ada@example.com", Message: "Hi"}
	if _, err := f.db.CreateContactMessage(context.Background(), m, nil); err != nil {
		t.Fatal(err)
	}
	_, event, p = c.next()
	data, _ := p["data"].(map[string]any)
	record, _ := data["record"].(map[string]any)
	if event != "postgres_changes" || data["type"] != "INSERT" || data["table"] != "contact_messages" || record["id"] != "m01" ||
		record["spam"] != false || record["received_at"] != query.FormatTime(m.ReceivedAt) || p["ids"].([]any)[0] != id {
		t.Errorf("change = %s %v", event, p)
	}

	c.send(`["1","2","realtime:inbox","access_token",{"access_token":"` + f.token + `"}]`)
	if _, event, p = c.next(); event != "phx_reply" || p["status"] != "ok" {
		t.Errorf("access_token reply = %s %v", event, p)
	}
	c.send(`["1","3","realtime:inbox","broadcast",{"type":"broadcast","event":"x","payload":{}}]`)
	if _, event, p = c.next(); event != "phx_reply" || p["status"] != "error" {
		t.Errorf("broadcast reply = %s %v", event, p)
	}
	c.send(`["1","4","realtime:inbox","phx_leave",{}]`)
	if _, event, p = c.next(); event != "phx_reply" || p["status"] != "ok" {
		t.Errorf("leave reply = %s %v", event, p)
	}

	c.send(join("realtime:again", inbox(f.token)))
	c.next() // the reply
	c.next() // the system message
	authtest.SignOut(t, f.db, "ada@studio.test")
	if _, event, p = c.next(); event != "system" || p["status"] != "error" || !strings.Contains(p["message"].(string), "session has ended") {
		t.Errorf("after the sign-out = %s %v", event, p)
	}
	if _, event, _ = c.next(); event != "phx_close" {
		t.Errorf("then %s, want phx_close", event)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, _, err := c.ws.Read(ctx); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Errorf("the socket after the sign-out: %v, want closed (policy violation)", err)
	}
}

// TestSerializer1: serializer 1.0.0 sends and receives JSON objects.
func TestSerializer1(t *testing.T) {
	f := newFixture(t, realtime.Config{})
	c := f.dial("")
	c.send(`{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"7"}`)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, data, err := c.ws.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Ref     string         `json:"ref"`
		Topic   string         `json:"topic"`
		Event   string         `json:"event"`
		Payload map[string]any `json:"payload"`
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Ref != "7" || m.Event != "phx_reply" || m.Payload["status"] != "ok" {
		t.Errorf("heartbeat reply = %s", data)
	}
}

// TestBadMessagesCloseTheSocket: what is not a channel message ends the
// connection with a close status, not a crash.
func TestBadMessagesCloseTheSocket(t *testing.T) {
	f := newFixture(t, realtime.Config{})
	for _, raw := range []string{`not json`, `[1,2]`, `{"topic":"","event":""}`, `["1","1","realtime:x"]`} {
		c := f.dial("?vsn=2.0.0")
		c.send(raw)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, _, err := c.ws.Read(ctx)
		cancel()
		if websocket.CloseStatus(err) != websocket.StatusUnsupportedData {
			t.Errorf("%s: %v, want closed (unsupported data)", raw, err)
		}
	}
}

// TestNotTheWebsocket: other paths are 404, and a plain GET of the
// websocket is refused by the handshake.
func TestNotTheWebsocket(t *testing.T) {
	f := newFixture(t, realtime.Config{})
	base := "http" + strings.TrimPrefix(strings.TrimSuffix(f.url, "/websocket"), "ws")
	for path, want := range map[string]int{"/api/broadcast": 404, "/websocket": http.StatusUpgradeRequired} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s = %d, want %d", path, resp.StatusCode, want)
		}
	}
}

// limits records the limits the service reports reached (Config.Limited).
type limits struct {
	mu      sync.Mutex
	reached []string
}

func (l *limits) add(limit string) { l.mu.Lock(); l.reached = append(l.reached, limit); l.mu.Unlock() }

func (l *limits) count(limit string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.reached {
		if r == limit {
			n++
		}
	}
	return n
}

// behindProxy is the client address as the server finds it, with the
// loopback as the trusted proxy: X-Forwarded-For names the client.
func behindProxy(r *http.Request) netip.Addr {
	return server.ClientIP(r, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")})
}

// TestConnsPerClient: a client address (an IPv6 client's /64) may hold
// MaxConnsPerClient websockets; the next is refused with 429 and
// Supabase Realtime's {"error": …}, others are not, and a closed one frees
// its place.
func TestConnsPerClient(t *testing.T) {
	var lim limits
	f := newFixture(t, realtime.Config{MaxConnsPerClient: 2, ClientIP: behindProxy, Limited: lim.add})
	tests := []struct {
		name    string
		open    []string // accepted, in order
		refused string   // then refused
		other   string   // then still accepted
	}{
		{"IPv4", []string{"203.0.113.7", "203.0.113.7"}, "203.0.113.7", "203.0.113.8"},
		{"IPv6 by its /64", []string{"2001:db8:1:2::1", "2001:db8:1:2:ffff::1"}, "2001:db8:1:2:abcd::9", "2001:db8:1:3::1"},
		{"IPv4 mapped into IPv6", []string{"198.51.100.1", "::ffff:198.51.100.1"}, "198.51.100.1", "198.51.100.2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var open []*client
			for _, addr := range tt.open {
				c, _, err := f.dialFrom(addr, "?vsn=2.0.0")
				if err != nil {
					t.Fatalf("%s: %v", addr, err)
				}
				open = append(open, c)
			}
			before := lim.count(realtime.LimitConnsPerClient)
			_, resp, err := f.dialFrom(tt.refused, "?vsn=2.0.0")
			if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("%s, one too many: %v %v, want 429", tt.refused, resp, err)
			}
			var body struct{ Error string }
			if json.NewDecoder(resp.Body).Decode(&body) != nil || !strings.Contains(body.Error, "Too many connections") {
				t.Errorf("refusal body = %+v", body)
			}
			if got := lim.count(realtime.LimitConnsPerClient) - before; got != 1 {
				t.Errorf("limit reported %d times, want 1", got)
			}
			if _, _, err := f.dialFrom(tt.other, "?vsn=2.0.0"); err != nil {
				t.Errorf("%s, another client: %v", tt.other, err)
			}

			_ = open[0].ws.Close(websocket.StatusNormalClosure, "")
			deadline := time.Now().Add(3 * time.Second) // the server notices the close on its own
			for {
				_, _, err := f.dialFrom(tt.refused, "?vsn=2.0.0")
				if err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("after one closed: %v", err)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// TestChannelsPerConn: a websocket may join MaxChannels channels; one more
// is refused with Supabase Realtime's reply, a join again of a joined
// topic is not one more, and a leave frees a place.
func TestChannelsPerConn(t *testing.T) {
	var lim limits
	f := newFixture(t, realtime.Config{MaxChannels: 2, Limited: lim.add})
	c := f.dial("?vsn=2.0.0")
	bare := `{"config":{},"access_token":"` + f.token + `"}` // no bindings: no system message
	steps := []struct {
		name, send, topic, status, reason string
	}{
		{"first", join("realtime:a", bare), "realtime:a", "ok", ""},
		{"second", join("realtime:b", bare), "realtime:b", "ok", ""},
		{"the first again", join("realtime:a", bare), "realtime:a", "ok", ""},
		{"one too many", join("realtime:c", bare), "realtime:c", "error", "ChannelRateLimitReached: Too many channels"},
		{"leave one", `["1","5","realtime:a","phx_leave",{}]`, "realtime:a", "ok", ""},
		{"then another", join("realtime:c", bare), "realtime:c", "ok", ""},
	}
	for _, st := range steps {
		c.send(st.send)
		topic, event, p := c.next()
		resp, _ := p["response"].(map[string]any)
		if topic != st.topic || event != "phx_reply" || p["status"] != st.status || (st.reason != "" && resp["reason"] != st.reason) {
			t.Errorf("%s: reply = %s %s %v, want %s %q", st.name, topic, event, p, st.status, st.reason)
		}
	}
	if n := lim.count(realtime.LimitChannels); n != 1 {
		t.Errorf("limit reported %d times, want 1", n)
	}
}

// TestBindingsPerChannel: a channel may have MaxBindings postgres_changes
// bindings; a join with more is refused with a reason.
func TestBindingsPerChannel(t *testing.T) {
	var lim limits
	f := newFixture(t, realtime.Config{MaxBindings: 3, Limited: lim.add})
	c := f.dial("?vsn=2.0.0")
	withBindings := func(n int) string {
		b := `{"event":"INSERT","schema":"public","table":"contact_messages"}`
		return `{"config":{"postgres_changes":[` + strings.Repeat(b+",", n-1) + b + `]},"access_token":"` + f.token + `"}`
	}
	tests := []struct {
		name     string
		bindings int
		status   string
	}{
		{"at the cap", 3, "ok"},
		{"over the cap", 4, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.send(join("realtime:"+tt.name, withBindings(tt.bindings)))
			_, event, p := c.next()
			resp, _ := p["response"].(map[string]any)
			if event != "phx_reply" || p["status"] != tt.status {
				t.Fatalf("reply = %s %v, want %s", event, p, tt.status)
			}
			if tt.status == "ok" {
				if pcs, _ := resp["postgres_changes"].([]any); len(pcs) != tt.bindings {
					t.Errorf("joined with %d bindings, want %d", len(pcs), tt.bindings)
				}
				c.next() // the system message
			} else if reason, _ := resp["reason"].(string); !strings.Contains(reason, "too many postgres_changes bindings") {
				t.Errorf("reason = %q", reason)
			}
		})
	}
	if n := lim.count(realtime.LimitBindings); n != 1 {
		t.Errorf("limit reported %d times, want 1", n)
	}
}

// TestJoinDeadline: a websocket that has joined no channel within
// JoinDeadline is closed (policy violation), whether it tried or not; one
// that joined stays open.
func TestJoinDeadline(t *testing.T) {
	var lim limits
	f := newFixture(t, realtime.Config{JoinDeadline: time.Second, Limited: lim.add})

	// Opened first, so its deadline has passed once the others are closed.
	joined := f.dial("?vsn=2.0.0")
	joined.send(join("realtime:inbox", `{"config":{},"access_token":"`+f.token+`"}`))
	if _, event, p := joined.next(); event != "phx_reply" || p["status"] != "ok" {
		t.Fatalf("join reply = %s %v", event, p)
	}

	tests := []struct {
		name  string
		sends []string
	}{
		{"silent", nil},
		{"heartbeats only", []string{`[null,"1","phoenix","heartbeat",{}]`}},
		{"refused joins", []string{join("realtime:inbox", `{"config":{}}`), join("realtime:inbox", inbox("x.y.z"))}},
	}
	sockets := make([]*client, len(tests))
	for i, tt := range tests {
		sockets[i] = f.dial("?vsn=2.0.0")
		for _, m := range tt.sends {
			sockets[i].send(m)
		}
	}
	for i, tt := range tests {
		if err := readUntilClosed(sockets[i]); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
			t.Errorf("%s: %v, want closed (policy violation)", tt.name, err)
		}
	}
	if n := lim.count(realtime.LimitJoinDeadline); n != len(tests) {
		t.Errorf("limit reported %d times, want %d", n, len(tests))
	}

	joined.send(`[null,"2","phoenix","heartbeat",{}]`)
	if _, event, p := joined.next(); event != "phx_reply" || p["status"] != "ok" {
		t.Errorf("the joined socket, after its deadline: %s %v, want a heartbeat reply", event, p)
	}
}

// readUntilClosed reads replies until the socket closes (or 5 s pass), and
// says why it closed.
func readUntilClosed(c *client) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		_, data, err := c.ws.Read(ctx)
		if err != nil {
			return err
		}
		if !strings.Contains(string(data), "phx_reply") {
			return fmt.Errorf("unexpected %s", data)
		}
	}
}
