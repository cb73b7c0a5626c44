package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/api"
	"studio/internal/contact"
	"studio/internal/form"
	"studio/internal/notify"
	"studio/internal/ratelimit"
	"studio/internal/redirect/redirecttest"
	"studio/internal/server"
	"studio/internal/signup"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

const validContact = `{"name":"Ada Lovelace","email":"ada@example.com","company":null,"phone":null,"message":"Let's build an MVP."}`

// validContactForm is validContact as the contact page's form posts it
// natively (JavaScript off): every field, the empty ones too.
const validContactForm = "name=Ada+Lovelace&email=ada%40example.com&company=&phone=&message=Let%27s+build+an+MVP.&website="

const formContentType = "application/x-www-form-urlencoded"

// formPost is a native form post to the function fn from a page of the site
// (Origin http://example.com, the Host of a test request), answered 303 to
// location.
func formPost(name, fn, body, location string) scenario {
	return scenario{name: name, method: "POST", path: "/functions/v1/" + fn, body: body,
		headers:    map[string]string{"Content-Type": formContentType, "Origin": "http://example.com"},
		wantStatus: http.StatusSeeOther, wantHeader: map[string]string{"Location": location, "Cache-Control": "no-store", "Retry-After": ""}}
}

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

func (downStore) CreateContactMessage(context.Context, contact.Message, *notify.Email) (contact.Message, error) {
	return contact.Message{}, fmt.Errorf("insert contact message: %w", store.ErrUnavailable)
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
			if w.Code == http.StatusSeeOther {
				checkRedirect(t, w)
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

// checkRedirect checks an answer to a native form post: a redirect, not
// cached, to a page of the site that holds no submitted value: a success
// page or the problem page of a reason of rules.json.
func checkRedirect(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("redirect Cache-Control = %q, want no-store", cc)
	}
	if ct := w.Header().Get("Content-Type"); strings.Contains(ct, "json") {
		t.Errorf("redirect Content-Type = %q, want no JSON", ct)
	}
	loc := w.Header().Get("Location")
	redirecttest.CheckSameSite(t, loc)
	if reason, ok := strings.CutPrefix(loc, "/forms/problem/"); ok {
		if _, known := form.Rules.Problems[reason]; !known {
			t.Errorf("redirect to %q: %q is not a key of problems in rules.json (no page)", loc, reason)
		}
		return
	}
	switch loc {
	case "/contact/sent", "/resources/subscribed":
		return
	}
	for _, id := range signup.WaitlistProducts {
		if loc == "/products/"+id+"/joined" {
			return
		}
	}
	t.Errorf("redirect to %q, not a page of the site", loc)
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
	huge := `{"name":"Ada","email":"ada@example.com","message":"` + strings.Repeat("x", api.MaxBodyBytes) + `"}`
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
		{name: "contact: multipart form body", method: "POST", path: "/functions/v1/submit-contact", body: "--x\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n--x--\r\n",
			headers: map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, wantStatus: 415, wantBody: map[string]any{"error": msgs.UnsupportedMediaType}},
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
			wantStatus: 204, wantHeader: map[string]string{"Access-Control-Allow-Origin": "https://partner.example", "Access-Control-Allow-Methods": "POST, OPTIONS", "Access-Control-Allow-Headers": "authorization, apikey, content-type, x-client-info, x-region, idempotency-key", "Vary": "Origin"}},
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
		formPost("contact form", "submit-contact", validContactForm, "/forms/problem/unavailable"),
		formPost("waitlist form", "join-waitlist", "email=a%40example.com&productId=saas-2", "/forms/problem/unavailable"),
		formPost("newsletter form", "subscribe-newsletter", "email=a%40example.com", "/forms/problem/unavailable"),
		formPost("bad input in a form is still its problem", "submit-contact", "", "/forms/problem/name"),
	})
}

// brokenStore is a store that fails for another reason than being
// unreachable (a bug, a constraint): a 500.
type brokenStore struct{}

func (brokenStore) CreateContactMessage(context.Context, contact.Message, *notify.Email) (contact.Message, error) {
	return contact.Message{}, errors.New("insert contact message: constraint violated")
}
func (brokenStore) JoinWaitlist(context.Context, signup.WaitlistEntry) (bool, error) {
	return false, errors.New("insert waitlist entry: constraint violated")
}
func (brokenStore) Subscribe(context.Context, signup.Subscriber) (bool, error) {
	return false, errors.New("insert subscriber: constraint violated")
}

// TestFunctionsStoreBroken: another store failure is a 500 with a readable
// error, or the internal problem page for a form post.
func TestFunctionsStoreBroken(t *testing.T) {
	h := newHandler(t, brokenStore{}, server.FunctionsConfig{})
	internal := map[string]any{"error": msgs.Internal}
	runScenarios(t, h, []scenario{
		{name: "contact", method: "POST", path: "/functions/v1/submit-contact", body: validContact, wantStatus: 500, wantBody: internal},
		{name: "newsletter", method: "POST", path: "/functions/v1/subscribe-newsletter", body: `{"email":"a@example.com"}`, wantStatus: 500, wantBody: internal},
		formPost("contact form", "submit-contact", validContactForm, "/forms/problem/internal"),
		formPost("waitlist form", "join-waitlist", "email=a%40example.com&productId=saas-3", "/forms/problem/internal"),
		formPost("newsletter form", "subscribe-newsletter", "email=a%40example.com", "/forms/problem/internal"),
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

	// An IPv6 client is its /64: it has addresses to spare.
	var v6 []scenario
	for i := range 5 {
		v6 = append(v6, post(fmt.Sprintf("IPv6 message %d", i+1), fmt.Sprintf("[2001:db8:1:2::%x]:5555", i+1), "", 200, nil))
	}
	v6 = append(v6,
		post("IPv6: the sixth from another address of the /64 is refused", "[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:5555", "", 429, nil),
		post("IPv6: another /64 is another client", "[2001:db8:1:3::1]:5555", "", 200, nil))
	runScenarios(t, h, v6)

	h2 := newHandler(t, db, server.FunctionsConfig{Now: func() time.Time { return now }})
	var off []scenario
	for i := range 8 {
		off = append(off, post(fmt.Sprintf("rate limit off: message %d", i+1), "192.0.2.9:1", "", 200, nil))
	}
	runScenarios(t, h2, off)

	// The 429 body is readable JSON; a form post over the limit (the same
	// allowance) goes to its problem page, with Retry-After kept.
	overLimit := formPost("a form post over the limit", "submit-contact", validContactForm, "/forms/problem/rate-limited")
	overLimit.remote = "192.0.2.7:1"
	overLimit.wantHeader["Retry-After"] = "120"
	runScenarios(t, h, []scenario{
		{name: "429 body", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
			remote: "192.0.2.7:1", wantStatus: 429, wantBody: map[string]any{"error": msgs.RateLimited}},
		overLimit,
	})
}

// TestFunctionsNativeForms is the scenario table of the site's forms posted
// natively by a browser without JavaScript: the same fields as the JSON,
// the same rules, answered 303 to a page. It also checks that every reason
// the server can redirect for is reachable and has its page in rules.json.
func TestFunctionsNativeForms(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	h := newHandler(t, db, server.FunctionsConfig{
		AllowedOrigins: []string{"https://partner.example"},
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
	})
	long := func(n int) string { return strings.Repeat("x", n) }
	contactWith := func(field, value string) string { // validContactForm with one field's value replaced
		v, err := url.ParseQuery(validContactForm)
		if err != nil {
			t.Fatal(err)
		}
		v.Set(field, value)
		return v.Encode()
	}
	with := func(sc scenario, edit func(*scenario)) scenario {
		sc.headers = maps.Clone(sc.headers)
		sc.wantHeader = maps.Clone(sc.wantHeader)
		edit(&sc)
		return sc
	}
	forbidden := func(name, origin string) scenario {
		return with(formPost(name, "submit-contact", validContactForm, ""), func(sc *scenario) {
			sc.headers["Origin"] = origin
			sc.wantStatus = http.StatusForbidden
			sc.wantHeader = map[string]string{"Location": ""}
			sc.wantBody = map[string]any{"error": "Cross-site form submissions are not allowed"}
		})
	}

	successes := []scenario{
		formPost("contact: valid", "submit-contact", validContactForm, "/contact/sent"),
		formPost("contact: every field", "submit-contact", "name=Zo%C3%AB&email=zoe%40example.com&company=Acme%2C+Inc.&phone=%2B1+415+555+0100&message=Hello%0D%0Athere&website=", "/contact/sent"),
		formPost("contact: the honeypot filled is answered like a success", "submit-contact", contactWith("website", "http://spam.example"), "/contact/sent"),
		with(formPost("contact: charset parameter is fine", "submit-contact", validContactForm, "/contact/sent"), func(sc *scenario) {
			sc.headers["Content-Type"] = "application/x-www-form-urlencoded; charset=UTF-8"
		}),
		with(formPost("contact: media type in upper case", "submit-contact", validContactForm, "/contact/sent"), func(sc *scenario) {
			sc.headers["Content-Type"] = "Application/X-WWW-Form-URLEncoded"
		}),
		with(formPost("contact: no Origin (an older browser)", "submit-contact", validContactForm, "/contact/sent"), func(sc *scenario) {
			sc.headers["Origin"] = ""
		}),
		with(formPost("contact: an allowed origin", "submit-contact", validContactForm, "/contact/sent"), func(sc *scenario) {
			sc.headers["Origin"] = "https://partner.example"
		}),
		with(formPost("contact: same origin over TLS", "submit-contact", validContactForm, "/contact/sent"), func(sc *scenario) {
			sc.path = "https://example.com" + sc.path
			sc.headers["Origin"] = "https://example.com"
		}),
		with(formPost("contact: same origin behind a trusted proxy that ended TLS", "submit-contact", validContactForm, "/contact/sent"), func(sc *scenario) {
			sc.remote = "10.1.2.3:80"
			sc.headers["Origin"] = "https://example.com"
			sc.headers["X-Forwarded-Proto"] = "https"
		}),
		formPost("waitlist: join", "join-waitlist", "email=Ada%40Example.com&productId=saas-2", "/products/saas-2/joined"),
		formPost("waitlist: join again is still a success", "join-waitlist", "email=ada%40example.com&productId=saas-2", "/products/saas-2/joined"),
		formPost("waitlist: another product", "join-waitlist", "productId=saas-3&email=ada%40example.com", "/products/saas-3/joined"),
		formPost("newsletter: subscribe", "subscribe-newsletter", "email=reader%40example.com", "/resources/subscribed"),
		formPost("newsletter: again", "subscribe-newsletter", "email=READER%40example.com", "/resources/subscribed"),
	}
	failures := []scenario{
		formPost("contact: empty body: the first field", "submit-contact", "", "/forms/problem/name"),
		formPost("contact: blank name", "submit-contact", contactWith("name", "   "), "/forms/problem/name"),
		formPost("contact: name too long", "submit-contact", contactWith("name", long(101)), "/forms/problem/name"),
		formPost("contact: bad email", "submit-contact", contactWith("email", "ada"), "/forms/problem/email"),
		formPost("contact: company too long", "submit-contact", contactWith("company", long(101)), "/forms/problem/company"),
		formPost("contact: phone too long", "submit-contact", contactWith("phone", long(51)), "/forms/problem/phone"),
		formPost("contact: empty message", "submit-contact", contactWith("message", ""), "/forms/problem/message"),
		formPost("contact: the first bad field in the rules' order", "submit-contact", "message=&email=ada&name=Ada", "/forms/problem/email"),
		formPost("contact: an unknown field", "submit-contact", validContactForm+"&admin=1", "/forms/problem/invalid"),
		formPost("contact: an unknown field beats a bad one (the form, not the visitor, is wrong)", "submit-contact", "name=&subject=x", "/forms/problem/invalid"),
		formPost("contact: a field twice", "submit-contact", validContactForm+"&name=Bob", "/forms/problem/invalid"),
		formPost("contact: the honeypot twice", "submit-contact", validContactForm+"&website=", "/forms/problem/invalid"),
		formPost("contact: a bad escape", "submit-contact", validContactForm+"%ZZ", "/forms/problem/invalid"),
		formPost("contact: a semicolon", "submit-contact", strings.ReplaceAll(validContactForm, "&", ";"), "/forms/problem/invalid"),
		formPost("contact: not UTF-8", "submit-contact", contactWith("name", "Ada")+"%FF", "/forms/problem/invalid"),
		formPost("contact: body over 64 KiB", "submit-contact", contactWith("message", long(api.MaxBodyBytes)), "/forms/problem/too-large"),
		formPost("waitlist: bad email", "join-waitlist", "email=ada%40&productId=saas-3", "/forms/problem/signup-email"),
		formPost("waitlist: bad email before bad product", "join-waitlist", "productId=nope&email=", "/forms/problem/signup-email"),
		formPost("waitlist: a live product has none", "join-waitlist", "email=ada%40example.com&productId=aurion", "/forms/problem/product"),
		formPost("waitlist: an unknown product (its id never reaches the Location)", "join-waitlist", "email=ada%40example.com&productId=..%2F..%2Fevil", "/forms/problem/product"),
		formPost("waitlist: no product", "join-waitlist", "email=ada%40example.com", "/forms/problem/product"),
		formPost("waitlist: a field of the contact form", "join-waitlist", "email=ada%40example.com&productId=saas-2&name=Ada", "/forms/problem/invalid"),
		formPost("newsletter: missing email", "subscribe-newsletter", "", "/forms/problem/signup-email"),
		formPost("newsletter: bad email", "subscribe-newsletter", "email=reader", "/forms/problem/signup-email"),
		formPost("newsletter: a field twice", "subscribe-newsletter", "email=a%40example.com&email=b%40example.com", "/forms/problem/invalid"),
		forbidden("cross-site: another site's form", "https://evil.example"),
		forbidden("cross-site: another scheme", "https://example.com"),
		forbidden("cross-site: another port", "http://example.com:8080"),
		forbidden("cross-site: an opaque origin", "null"),
		with(forbidden("cross-site: X-Forwarded-Proto from an untrusted address is ignored", "https://example.com"), func(sc *scenario) {
			sc.headers["X-Forwarded-Proto"] = "https"
		}),
		with(forbidden("cross-site: also for a bad body (refused before reading)", "https://evil.example"), func(sc *scenario) {
			sc.body = "%FF"
		}),
		with(forbidden("cross-site: the sign-ups too", "https://evil.example"), func(sc *scenario) {
			sc.path, sc.body = "/functions/v1/subscribe-newsletter", "email=victim%40example.com"
		}),
		{name: "JSON from another origin keeps the CORS behaviour (taken, unreadable)", method: "POST", path: "/functions/v1/subscribe-newsletter",
			body: `{"email":"cors@example.com"}`, headers: map[string]string{"Origin": "https://evil.example"},
			wantStatus: 200, wantHeader: map[string]string{"Access-Control-Allow-Origin": ""}, wantBody: map[string]any{"ok": true}},
	}
	runScenarios(t, h, slices.Concat(successes, failures))

	// What was stored: one message per contact success, the empty optional
	// fields null, the honeypot one as spam; the sign-ups in lower case.
	ctx := context.Background()
	stored, err := db.ListContactMessages(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var wantMessages int
	for _, sc := range successes {
		if strings.HasSuffix(sc.path, "/submit-contact") {
			wantMessages++
		}
	}
	if len(stored) != wantMessages {
		t.Fatalf("stored %d messages, want %d: %+v", len(stored), wantMessages, stored)
	}
	first, every, spam := stored[0], stored[1], stored[2]
	if first.Name != "Ada Lovelace" || first.Email != "ada@example.com" || first.Message != "Let's build an MVP." || first.Company != nil || first.Phone != nil || first.Spam {
		t.Errorf("the valid form stored %+v", first)
	}
	if every.Name != "Zoë" || every.Company == nil || *every.Company != "Acme, Inc." || every.Phone == nil || *every.Phone != "+1 415 555 0100" || every.Message != "Hello\r\nthere" {
		t.Errorf("the full form stored %+v", every)
	}
	for i, m := range stored {
		if m.Spam != (m.ID == spam.ID) {
			t.Errorf("message %d: spam = %v", i, m.Spam)
		}
	}
	if !spam.Spam {
		t.Errorf("the honeypot form stored %+v, want spam", spam)
	}
	wl, _ := db.ListWaitlist(ctx)
	var joined []string
	for _, e := range wl {
		joined = append(joined, e.ProductID+" "+e.Email)
	}
	slices.Sort(joined)
	if diff := cmp.Diff([]string{"saas-2 ada@example.com", "saas-3 ada@example.com"}, joined); diff != "" {
		t.Errorf("waitlist (-want +got):\n%s", diff)
	}
	subs, _ := db.ListSubscribers(ctx)
	var emails []string
	for _, s := range subs {
		emails = append(emails, s.Email)
	}
	slices.Sort(emails)
	if diff := cmp.Diff([]string{"cors@example.com", "reader@example.com"}, emails); diff != "" {
		t.Errorf("subscribers (-want +got):\n%s", diff)
	}
}

// TestFunctionsProblemReasons: every reason the server can redirect a form
// post for is a key of rules.json "problems" (the web build prerenders a
// page only for those), every key is one the server uses, and each is
// reached: one form post per reason.
func TestFunctionsProblemReasons(t *testing.T) {
	reasons := slices.Sorted(slices.Values(server.ProblemReasons))
	keys := slices.Sorted(maps.Keys(form.Rules.Problems))
	if diff := cmp.Diff(keys, reasons); diff != "" {
		t.Errorf("the server's reasons (+) and the problems of rules.json (-) differ:\n%s", diff)
	}

	now := time.Date(2025, 5, 16, 12, 0, 0, 0, time.UTC)
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	limited := newHandler(t, db, server.FunctionsConfig{RateLimit: ratelimit.Rate{N: 1, Per: time.Minute}, Now: func() time.Time { return now }})
	down := newHandler(t, downStore{}, server.FunctionsConfig{})
	broken := newHandler(t, brokenStore{}, server.FunctionsConfig{})
	guarded := newHandler(t, db, server.FunctionsConfig{Captcha: newSiteverify(t).verifier(t)})
	overLimit := formPost("rate-limited: the second", "subscribe-newsletter", "email=a%40example.com", "/forms/problem/rate-limited")
	overLimit.wantHeader["Retry-After"] = "60"
	posts := []struct {
		h  http.Handler
		sc scenario
	}{
		{limited, formPost("name", "submit-contact", "email=ada%40example.com&message=Hi", "/forms/problem/name")},
		{limited, formPost("email", "submit-contact", "name=Ada&email=ada%40&message=Hi", "/forms/problem/email")},
		{limited, formPost("company", "submit-contact", "name=Ada&email=ada%40example.com&message=Hi&company="+strings.Repeat("c", 101), "/forms/problem/company")},
		{limited, formPost("phone", "submit-contact", "name=Ada&email=ada%40example.com&message=Hi&phone="+strings.Repeat("1", 51), "/forms/problem/phone")},
		{limited, formPost("message", "submit-contact", "name=Ada&email=ada%40example.com&message=+", "/forms/problem/message")},
		{limited, formPost("signup-email", "join-waitlist", "email=&productId=saas-2", "/forms/problem/signup-email")},
		{limited, formPost("product", "join-waitlist", "email=ada%40example.com&productId=aurion", "/forms/problem/product")},
		{limited, formPost("invalid", "subscribe-newsletter", "email=a%40example.com&list=all", "/forms/problem/invalid")},
		{limited, formPost("too-large", "subscribe-newsletter", "email="+strings.Repeat("a", api.MaxBodyBytes), "/forms/problem/too-large")},
		{limited, formPost("rate-limited: the first", "subscribe-newsletter", "email=a%40example.com", "/resources/subscribed")},
		{limited, overLimit},
		{down, formPost("unavailable", "submit-contact", validContactForm, "/forms/problem/unavailable")},
		{broken, formPost("internal", "subscribe-newsletter", "email=a%40example.com", "/forms/problem/internal")},
		{guarded, formPost("captcha", "subscribe-newsletter", "email=a%40example.com", "/forms/problem/captcha")},
	}
	reached := map[string]bool{}
	for _, p := range posts {
		runScenarios(t, p.h, []scenario{p.sc})
		if r, ok := strings.CutPrefix(p.sc.wantHeader["Location"], "/forms/problem/"); ok {
			reached[r] = true
		}
	}
	for _, r := range reasons {
		if !reached[r] {
			t.Errorf("no form post reaches the reason %q", r)
		}
	}
}

// TestFunctionsInvalidText: a body that is not UTF-8, JSON or form, is
// refused whole (400, or the invalid problem page for a form post) and
// nothing is stored, rather than kept with U+FFFD for its bad bytes.
func TestFunctionsInvalidText(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	h := newHandler(t, db, server.FunctionsConfig{})
	invalidText := map[string]any{"error": msgs.InvalidText, "fields": map[string]any{}}
	jsonPost := func(name, fn, body string) scenario {
		return scenario{name: name, method: "POST", path: "/functions/v1/" + fn, body: body, wantStatus: 400, wantBody: invalidText}
	}
	runScenarios(t, h, []scenario{
		jsonPost("contact JSON: a bad byte in a value", "submit-contact", strings.Replace(validContact, "Lovelace", "Lovelace\xff", 1)),
		jsonPost("contact JSON: a bad byte in the message", "submit-contact", strings.Replace(validContact, "MVP", "MVP\xc3", 1)),
		jsonPost("contact JSON: an overlong encoding", "submit-contact", strings.Replace(validContact, "Ada", "\xc0\xaf", 1)),
		jsonPost("contact JSON: a bad byte in a key", "submit-contact", strings.TrimSuffix(validContact, "}")+`,"web`+"\xfe"+`site":""}`),
		jsonPost("waitlist JSON", "join-waitlist", "{\"email\":\"ada\xff@example.com\",\"productId\":\"saas-2\"}"),
		jsonPost("newsletter JSON", "subscribe-newsletter", "{\"email\":\"reader@example.com\xff\"}"),
		formPost("contact form: %FF in a value", "submit-contact", strings.Replace(validContactForm, "Lovelace", "Lovelace%FF", 1), "/forms/problem/invalid"),
		formPost("contact form: a raw bad byte in a value", "submit-contact", strings.Replace(validContactForm, "Lovelace", "Lovelace\xff", 1), "/forms/problem/invalid"),
		formPost("contact form: an encoded surrogate", "submit-contact", strings.Replace(validContactForm, "MVP", "MVP%ED%A0%80", 1), "/forms/problem/invalid"),
		formPost("contact form: a bad name", "submit-contact", strings.Replace(validContactForm, "website", "web%FEsite", 1), "/forms/problem/invalid"),
		formPost("waitlist form", "join-waitlist", "email=ada%FF%40example.com&productId=saas-2", "/forms/problem/invalid"),
		formPost("newsletter form", "subscribe-newsletter", "email=reader%40example.com%C3", "/forms/problem/invalid"),
	})
	ctx := context.Background()
	stored, _ := db.ListContactMessages(ctx, time.Time{})
	wl, _ := db.ListWaitlist(ctx)
	subs, _ := db.ListSubscribers(ctx)
	if len(stored)+len(wl)+len(subs) != 0 {
		t.Errorf("stored %+v, %+v, %+v; want nothing", stored, wl, subs)
	}
}

// TestFunctionsIdempotencyKey: a contact message sent again with the same
// Idempotency-Key (a balancer's retry, a page's second try) is answered as
// the first was and stored once; a malformed key is refused.
func TestFunctionsIdempotencyKey(t *testing.T) {
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	h := newHandler(t, db, server.FunctionsConfig{})
	send := func(key ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/functions/v1/submit-contact", strings.NewReader(validContact))
		req.Header.Set("Content-Type", "application/json")
		for _, k := range key {
			req.Header.Add("Idempotency-Key", k)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	first, again, quoted := send("req-7f3a"), send("req-7f3a"), send(`"req-7f3a"`)
	for _, rec := range []*httptest.ResponseRecorder{first, again, quoted} {
		if rec.Code != 200 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
	if again.Body.String() != first.Body.String() || quoted.Body.String() != first.Body.String() {
		t.Errorf("repeat answered %s and %s, first %s: want the same message", again.Body, quoted.Body, first.Body)
	}
	if other := send("req-other"); other.Body.String() == first.Body.String() {
		t.Errorf("another key answered the first message: %s", other.Body)
	}
	for _, bad := range [][]string{{""}, {"with space"}, {strings.Repeat("k", 256)}, {"naïve"}, {"a", "b"}} {
		rec := send(bad...)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), msgs.InvalidIdempotencyKey) {
			t.Errorf("key %q: %d %s, want 400 with the rules' message", bad, rec.Code, rec.Body)
		}
	}
	stored, err := db.ListContactMessages(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 2 {
		t.Errorf("%d messages stored, want 2 (one per key)", len(stored))
	}
}
