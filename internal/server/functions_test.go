package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/contact"
	"studio/internal/form"
	"studio/internal/notify"
	"studio/internal/ratelimit"
	"studio/internal/server"
	"studio/internal/signup"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

const validContact = `{"name":"Ada Lovelace","email":"ada@example.com","company":null,"phone":null,"message":"Let's build an MVP."}`

var (
	msgs     = form.Rules.Errors
	nameMsg  = form.Rules.Contact[0].Message
	emailMsg = form.Rules.Contact[1].Message
	msgMsg   = form.Rules.Contact[4].Message
	signMsg  = form.Rules.Signup.Email.Message
	prodMsg  = form.Rules.Signup.ProductID.Message
)

// downStore is a store whose database cannot be reached.
type downStore struct{}

func (downStore) CreateContactMessage(context.Context, contact.Message, *notify.Email) error {
	return fmt.Errorf("insert contact message: %w", store.ErrUnavailable)
}
func (downStore) JoinWaitlist(context.Context, signup.WaitlistEntry) (bool, error) {
	return false, fmt.Errorf("insert waitlist entry: %w", store.ErrUnavailable)
}
func (downStore) Subscribe(context.Context, signup.Subscriber) (bool, error) {
	return false, fmt.Errorf("insert subscriber: %w", store.ErrUnavailable)
}

type scenario struct {
	name       string
	method     string
	path       string
	headers    map[string]string // Content-Type is application/json unless set ("" removes it)
	body       string
	remote     string // RemoteAddr; 192.0.2.1:1234 unless set
	wantStatus int
	wantHeader map[string]string // "" means the header must be absent
	wantBody   map[string]any    // compared after decoding; nil skips; "<any>" matches any value
}

func runScenarios(t *testing.T, h http.Handler, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			req := httptest.NewRequest(sc.method, sc.path, strings.NewReader(sc.body))
			req.RemoteAddr = "192.0.2.1:1234"
			if sc.remote != "" {
				req.RemoteAddr = sc.remote
			}
			req.Header.Set("Content-Type", "application/json")
			for k, v := range sc.headers {
				if v == "" {
					req.Header.Del(k)
					continue
				}
				req.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != sc.wantStatus {
				t.Errorf("status = %d, want %d; body %s", w.Code, sc.wantStatus, w.Body)
			}
			for k, v := range sc.wantHeader {
				if got := w.Header().Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
			if sc.wantBody == nil {
				return
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type = %q, want JSON", ct)
			}
			var got map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatalf("body %q is not a JSON object: %v", w.Body, err)
			}
			for k, v := range sc.wantBody {
				if v == "<any>" {
					if got[k] == nil || got[k] == "" {
						t.Errorf("body lacks %q: %v", k, got)
					}
					got[k] = "<any>"
				}
			}
			if diff := cmp.Diff(sc.wantBody, got); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

func fields(kv ...string) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func newHandler(t *testing.T, db interface {
	contact.Store
	signup.Store
}, cfg server.FunctionsConfig) http.Handler {
	t.Helper()
	return server.New(server.Deps{
		Site:      fakeSite,
		Logger:    discardLogger(),
		Contact:   &contact.Service{Store: db},
		Signup:    &signup.Service{Store: db},
		Functions: cfg,
	})
}

// TestFunctions is the scenario table of the backend functions: every status
// they answer, their headers and body shapes.
func TestFunctions(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	h := newHandler(t, db, server.FunctionsConfig{AllowedOrigins: []string{"https://partner.example"}})
	huge := `{"name":"Ada","email":"ada@example.com","message":"` + strings.Repeat("x", server.MaxBodyBytes) + `"}`
	runScenarios(t, h, []scenario{
		{name: "contact: valid", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
			wantStatus: 200, wantHeader: map[string]string{"Cache-Control": "no-store"},
			wantBody: map[string]any{"id": "<any>", "received_at": "<any>"}},
		{name: "contact: the official client's headers are accepted", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
			headers:    map[string]string{"Authorization": "Bearer anon-key", "apikey": "anon-key", "x-client-info": "supabase-js-node/2.0.0"},
			wantStatus: 200, wantBody: map[string]any{"id": "<any>", "received_at": "<any>"}},
		{name: "contact: charset parameter is fine", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
			headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}, wantStatus: 200,
			wantBody: map[string]any{"id": "<any>", "received_at": "<any>"}},
		{name: "contact: honeypot filled is answered like a success", method: "POST", path: "/functions/v1/submit-contact",
			body:       strings.TrimSuffix(validContact, "}") + `,"website":"http://spam.example"}`,
			wantStatus: 200, wantBody: map[string]any{"id": "<any>", "received_at": "<any>"}},
		{name: "contact: empty object", method: "POST", path: "/functions/v1/submit-contact", body: `{}`,
			wantStatus: 400, wantBody: map[string]any{"error": nameMsg, "fields": fields("name", nameMsg, "email", emailMsg, "message", msgMsg)}},
		{name: "contact: blank name", method: "POST", path: "/functions/v1/submit-contact", body: strings.Replace(validContact, `"Ada Lovelace"`, `"   "`, 1),
			wantStatus: 400, wantBody: map[string]any{"error": nameMsg, "fields": fields("name", nameMsg)}},
		{name: "contact: bad email", method: "POST", path: "/functions/v1/submit-contact", body: strings.Replace(validContact, `ada@example.com`, `ada`, 1),
			wantStatus: 400, wantBody: map[string]any{"error": emailMsg, "fields": fields("email", emailMsg)}},
		{name: "contact: malformed JSON", method: "POST", path: "/functions/v1/submit-contact", body: `{"name":`,
			wantStatus: 400, wantBody: map[string]any{"error": msgs.InvalidBody, "fields": map[string]any{}}},
		{name: "contact: wrong type", method: "POST", path: "/functions/v1/submit-contact", body: strings.Replace(validContact, `"Ada Lovelace"`, `["Ada"]`, 1),
			wantStatus: 400, wantBody: map[string]any{"error": nameMsg, "fields": fields("name", nameMsg)}},
		{name: "contact: unknown field", method: "POST", path: "/functions/v1/submit-contact", body: strings.TrimSuffix(validContact, "}") + `,"admin":true}`,
			wantStatus: 400, wantBody: map[string]any{"error": msgs.UnknownField, "fields": fields("admin", msgs.UnknownField)}},
		{name: "contact: body over 64 KiB", method: "POST", path: "/functions/v1/submit-contact", body: huge,
			wantStatus: 413, wantBody: map[string]any{"error": msgs.TooLarge}},
		{name: "contact: form-encoded body", method: "POST", path: "/functions/v1/submit-contact", body: "name=Ada",
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, wantStatus: 415, wantBody: map[string]any{"error": msgs.UnsupportedMediaType}},
		{name: "contact: no content type", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
			headers: map[string]string{"Content-Type": ""}, wantStatus: 415, wantBody: map[string]any{"error": msgs.UnsupportedMediaType}},
		{name: "contact: GET", method: "GET", path: "/functions/v1/submit-contact",
			wantStatus: 405, wantHeader: map[string]string{"Allow": "OPTIONS, POST"}, wantBody: map[string]any{"error": msgs.MethodNotAllowed}},
		{name: "contact: PUT", method: "PUT", path: "/functions/v1/submit-contact", body: validContact,
			wantStatus: 405, wantHeader: map[string]string{"Allow": "OPTIONS, POST"}, wantBody: map[string]any{"error": msgs.MethodNotAllowed}},
		{name: "unknown function", method: "POST", path: "/functions/v1/delete-everything", body: `{}`,
			wantStatus: 404, wantBody: map[string]any{"error": "Function not found"}},
		{name: "CORS preflight from an allowed origin", method: "OPTIONS", path: "/functions/v1/submit-contact",
			headers:    map[string]string{"Origin": "https://partner.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, apikey, content-type, x-client-info"},
			wantStatus: 204, wantHeader: map[string]string{"Access-Control-Allow-Origin": "https://partner.example", "Access-Control-Allow-Methods": "POST, OPTIONS", "Access-Control-Allow-Headers": "authorization, apikey, content-type, x-client-info, x-region", "Vary": "Origin"}},
		{name: "CORS preflight from another origin", method: "OPTIONS", path: "/functions/v1/submit-contact",
			headers:    map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
			wantStatus: 403, wantHeader: map[string]string{"Access-Control-Allow-Origin": ""}, wantBody: map[string]any{"error": "Origin not allowed"}},
		{name: "CORS: an allowed origin may read the answer", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
			headers: map[string]string{"Origin": "https://partner.example"}, wantStatus: 200, wantHeader: map[string]string{"Access-Control-Allow-Origin": "https://partner.example"}},
		{name: "CORS: another origin may not", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
			headers: map[string]string{"Origin": "https://evil.example"}, wantStatus: 200, wantHeader: map[string]string{"Access-Control-Allow-Origin": ""}},
		{name: "waitlist: join", method: "POST", path: "/functions/v1/join-waitlist", body: `{"email":"Ada@Example.com","productId":"saas-2"}`,
			wantStatus: 200, wantBody: map[string]any{"ok": true}},
		{name: "waitlist: join again is still a success", method: "POST", path: "/functions/v1/join-waitlist", body: `{"email":"ada@example.com","productId":"saas-2"}`,
			wantStatus: 200, wantBody: map[string]any{"ok": true}},
		{name: "waitlist: a live product has none", method: "POST", path: "/functions/v1/join-waitlist", body: `{"email":"ada@example.com","productId":"aurion"}`,
			wantStatus: 400, wantBody: map[string]any{"error": prodMsg, "fields": fields("productId", prodMsg)}},
		{name: "waitlist: unknown product", method: "POST", path: "/functions/v1/join-waitlist", body: `{"email":"ada@example.com","productId":"datasync"}`,
			wantStatus: 400, wantBody: map[string]any{"error": prodMsg, "fields": fields("productId", prodMsg)}},
		{name: "waitlist: bad email", method: "POST", path: "/functions/v1/join-waitlist", body: `{"email":"ada@","productId":"saas-3"}`,
			wantStatus: 400, wantBody: map[string]any{"error": signMsg, "fields": fields("email", signMsg)}},
		{name: "waitlist: GET", method: "GET", path: "/functions/v1/join-waitlist", wantStatus: 405, wantHeader: map[string]string{"Allow": "OPTIONS, POST"}},
		{name: "newsletter: subscribe", method: "POST", path: "/functions/v1/subscribe-newsletter", body: `{"email":"reader@example.com"}`,
			wantStatus: 200, wantBody: map[string]any{"ok": true}},
		{name: "newsletter: again", method: "POST", path: "/functions/v1/subscribe-newsletter", body: `{"email":"READER@example.com"}`,
			wantStatus: 200, wantBody: map[string]any{"ok": true}},
		{name: "newsletter: missing email", method: "POST", path: "/functions/v1/subscribe-newsletter", body: `{}`,
			wantStatus: 400, wantBody: map[string]any{"error": signMsg, "fields": fields("email", signMsg)}},
		{name: "newsletter: text/plain", method: "POST", path: "/functions/v1/subscribe-newsletter", body: `{"email":"reader@example.com"}`,
			headers: map[string]string{"Content-Type": "text/plain"}, wantStatus: 415},
	})

	// What the scenarios stored: four messages, one of them spam; one
	// waitlist entry and one subscriber, in lower case.
	ctx := context.Background()
	stored, err := db.ListContactMessages(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var spam []bool
	for _, m := range stored {
		spam = append(spam, m.Spam)
	}
	if diff := cmp.Diff([]bool{false, false, false, true, false, false}, spam); diff != "" {
		t.Errorf("stored messages' spam flags (-want +got):\n%s", diff)
	}
	wl, _ := db.ListWaitlist(ctx)
	subs, _ := db.ListSubscribers(ctx)
	if len(wl) != 1 || wl[0].Email != "ada@example.com" || len(subs) != 1 {
		t.Errorf("waitlist %+v, subscribers %+v", wl, subs)
	}
}

// TestFunctionsStoreDown: a store that cannot be reached makes every
// function answer 503 with a readable error, never a 200.
func TestFunctionsStoreDown(t *testing.T) {
	h := newHandler(t, downStore{}, server.FunctionsConfig{})
	unavailable := map[string]any{"error": msgs.Unavailable}
	runScenarios(t, h, []scenario{
		{name: "contact", method: "POST", path: "/functions/v1/submit-contact", body: validContact, wantStatus: 503, wantBody: unavailable},
		{name: "waitlist", method: "POST", path: "/functions/v1/join-waitlist", body: `{"email":"a@example.com","productId":"saas-2"}`, wantStatus: 503, wantBody: unavailable},
		{name: "newsletter", method: "POST", path: "/functions/v1/subscribe-newsletter", body: `{"email":"a@example.com"}`, wantStatus: 503, wantBody: unavailable},
		{name: "bad input is still 400", method: "POST", path: "/functions/v1/submit-contact", body: `{}`, wantStatus: 400},
	})
}

// TestFunctionsCORSOffByDefault: without --allowed-origins no preflight passes.
func TestFunctionsCORSOffByDefault(t *testing.T) {
	h := newHandler(t, downStore{}, server.FunctionsConfig{})
	runScenarios(t, h, []scenario{
		{name: "preflight", method: "OPTIONS", path: "/functions/v1/submit-contact",
			headers: map[string]string{"Origin": "https://partner.example", "Access-Control-Request-Method": "POST"}, wantStatus: 403,
			wantHeader: map[string]string{"Access-Control-Allow-Origin": ""}},
	})
}

// TestFunctionsRateLimit: the sixth message from one client within ten
// minutes gets 429 with Retry-After; other clients are not affected; behind
// a trusted proxy the client is the X-Forwarded-For address, elsewhere the
// header is ignored.
func TestFunctionsRateLimit(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	now := time.Date(2025, 5, 16, 12, 0, 0, 0, time.UTC)
	h := newHandler(t, db, server.FunctionsConfig{
		RateLimit:      ratelimit.Rate{N: 5, Per: 10 * time.Minute},
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
		Now:            func() time.Time { return now },
	})
	post := func(name, remote, xff string, want int, wantHeader map[string]string) scenario {
		sc := scenario{name: name, method: "POST", path: "/functions/v1/submit-contact", body: validContact, remote: remote,
			wantStatus: want, wantHeader: wantHeader}
		if xff != "" {
			sc.headers = map[string]string{"X-Forwarded-For": xff}
		}
		return sc
	}
	var scs []scenario
	for i := range 5 {
		scs = append(scs, post(fmt.Sprintf("message %d", i+1), "192.0.2.7:5555", "", 200, nil))
	}
	scs = append(scs,
		scenario{name: "invalid input does not count and is still 400", method: "POST", path: "/functions/v1/submit-contact", body: `{}`, remote: "192.0.2.7:5555", wantStatus: 400},
		post("the sixth is refused", "192.0.2.7:6666", "", 429, map[string]string{"Retry-After": "120"}),
		post("a forged X-Forwarded-For from an untrusted address changes nothing", "192.0.2.7:6666", "203.0.113.9", 429, nil),
		post("another client", "192.0.2.8:5555", "", 200, nil),
		post("behind a trusted proxy: the forwarded client", "10.1.2.3:80", "192.0.2.7", 429, nil),
		post("behind a trusted proxy: another forwarded client", "10.1.2.3:80", "198.51.100.1, 10.9.9.9", 200, nil),
		post("the other functions have their own allowance", "192.0.2.7:5555", "", 429, nil),
	)
	scs[len(scs)-1].path = "/functions/v1/subscribe-newsletter"
	scs[len(scs)-1].body = `{"email":"a@example.com"}`
	scs[len(scs)-1].wantStatus = 200
	runScenarios(t, h, scs)

	h2 := newHandler(t, db, server.FunctionsConfig{Now: func() time.Time { return now }})
	var off []scenario
	for i := range 8 {
		off = append(off, post(fmt.Sprintf("rate limit off: message %d", i+1), "192.0.2.9:1", "", 200, nil))
	}
	runScenarios(t, h2, off)

	// The 429 body is readable JSON.
	runScenarios(t, h, []scenario{{name: "429 body", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
		remote: "192.0.2.7:1", wantStatus: 429, wantBody: map[string]any{"error": msgs.RateLimited}}})
}
