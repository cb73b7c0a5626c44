package realtime_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"studio/internal/auth/authtest"
	"studio/internal/contact"
	"studio/internal/realtime"
	"studio/internal/rest"
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, f.url+query, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { ws.CloseNow() })
	return &client{t: f.t, ws: ws}
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
		record["spam"] != false || record["received_at"] != rest.FormatTime(m.ReceivedAt) || p["ids"].([]any)[0] != id {
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
