package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"studio/internal/analytics"
	"studio/internal/api"
	"studio/internal/auth"
	"studio/internal/auth/authtest"
	"studio/internal/contact"
	"studio/internal/rest"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// fixture is the rest service on a SQLite store, with a real auth service
// and a signed-in member of staff.
type fixture struct {
	t     *testing.T
	db    *store.DB
	svc   *rest.Service
	gate  *auth.Service
	token string
}

func newFixture(t *testing.T) *fixture { return newFixtureOn(t, storetest.Engines()[0]) }

func newFixtureOn(t *testing.T, engine storetest.Engine) *fixture {
	t.Helper()
	db, authSvc := authtest.New(t, engine)
	f := &fixture{t: t, db: db, gate: authSvc, svc: rest.New(db, authSvc, rest.Config{AllowedOrigins: []string{"https://console.test"}})}
	f.token = authtest.SignIn(t, db, authSvc, "ada@studio.test")
	ctx := context.Background()
	for i, name := range []string{"Ada", "Grace"} {
		m := contact.Message{ID: "m0" + string(rune('1'+i)), ReceivedAt: time.Date(2025, 5, 16, 9, i, 0, 0, time.UTC),
			Name: name, Email: strings.ToLower(name) + "@example.com", Message: "Hello"}
		if _, err := db.CreateContactMessage(ctx, m, nil); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

type response struct {
	status int
	header http.Header
	body   string
	err    struct{ Code, Message string }
}

// do sends a request as staff; headers are name, value pairs that replace
// the defaults (an empty value removes one).
func (f *fixture) do(method, target, body string, headers ...string) response {
	f.t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Header.Set("Authorization", "Bearer "+f.token)
	r.Header.Set("apikey", "anon-key")
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			r.Header.Del(headers[i])
			continue
		}
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	f.svc.ServeHTTP(w, r)
	resp := response{status: w.Code, header: w.Header(), body: w.Body.String()}
	_ = json.Unmarshal(w.Body.Bytes(), &resp.err)
	return resp
}

// TestErrors: every bad request is a 4xx in PostgREST's shape, with its
// code; nothing reaches the store as text.
func TestErrors(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, method, target, body string
		headers                    []string
		status                     int
		code                       string
	}{
		{"no token", "GET", "/rest/v1/contact_messages", "", []string{"Authorization", ""}, 401, "PGRST302"},
		{"the anon key as the token", "GET", "/rest/v1/contact_messages", "", []string{"Authorization", "Bearer anon-key"}, 401, "PGRST302"},
		{"a token that does not verify", "GET", "/rest/v1/contact_messages", "", []string{"Authorization", "Bearer x.y.z"}, 401, "PGRST301"},
		{"basic auth", "GET", "/rest/v1/contact_messages", "", []string{"Authorization", "Basic YTpi"}, 401, "PGRST302"},
		{"unknown table", "GET", "/rest/v1/auth_users", "", nil, 404, "PGRST205"},
		{"the store's name of a table", "GET", "/rest/v1/newsletter_subscribers", "", nil, 404, "PGRST205"},
		{"a function", "POST", "/rest/v1/rpc/anything", "{}", nil, 404, "PGRST202"},
		{"analytics: not JSON", "POST", "/rest/v1/rpc/analytics_summary", "since=yesterday", nil, 400, "PGRST102"},
		{"analytics: no period", "POST", "/rest/v1/rpc/analytics_summary", "{}", nil, 400, "22023"},
		{"analytics: until before since", "POST", "/rest/v1/rpc/analytics_summary", `{"since":"2026-03-02T00:00:00Z","until":"2026-03-01T00:00:00Z"}`, nil, 400, "22023"},
		{"analytics: a bad interval", "POST", "/rest/v1/rpc/analytics_summary", `{"since":"2026-03-01T00:00:00Z","until":"2026-03-02T00:00:00Z","interval":"minute"}`, nil, 400, "22023"},
		{"analytics: hourly over a year", "POST", "/rest/v1/rpc/analytics_summary", `{"since":"2025-03-01T00:00:00Z","until":"2026-03-01T00:00:00Z","interval":"hour"}`, nil, 400, "22023"},
		{"analytics: a bad time in a GET", "GET", "/rest/v1/rpc/analytics_summary?since=yesterday", "", nil, 400, "22023"},
		{"analytics: no token", "POST", "/rest/v1/rpc/analytics_summary", "{}", []string{"Authorization", ""}, 401, "PGRST302"},
		{"analytics: PATCH", "PATCH", "/rest/v1/rpc/analytics_summary", "{}", nil, 405, "PGRST117"},
		{"another schema", "GET", "/rest/v1/contact_messages", "", []string{"Accept-Profile", "auth"}, 406, "PGRST106"},
		{"unknown column in select", "GET", "/rest/v1/contact_messages?select=id,password", "", nil, 400, "42703"},
		{"a cast in select", "GET", "/rest/v1/contact_messages?select=id::int", "", nil, 400, "PGRST100"},
		{"embedding", "GET", "/rest/v1/contact_messages?select=*,outbox(*)", "", nil, 400, "PGRST200"},
		{"unknown column in a filter", "GET", "/rest/v1/contact_messages?password=eq.x", "", nil, 400, "42703"},
		{"unknown operator", "GET", "/rest/v1/contact_messages?name=regex.x", "", nil, 400, "PGRST100"},
		{"a filter without operator", "GET", "/rest/v1/contact_messages?name=Ada", "", nil, 400, "PGRST100"},
		{"full-text search", "GET", "/rest/v1/contact_messages?message=fts.hello", "", nil, 400, "PGRST100"},
		{"like on a time", "GET", "/rest/v1/contact_messages?received_at=like.2025*", "", nil, 404, "42883"},
		{"is with another value", "GET", "/rest/v1/contact_messages?company=is.empty", "", nil, 400, "PGRST100"},
		{"is true on text", "GET", "/rest/v1/contact_messages?company=is.true", "", nil, 400, "42804"},
		{"a bad boolean", "GET", "/rest/v1/contact_messages?spam=eq.maybe", "", nil, 400, "22P02"},
		{"a bad time", "GET", "/rest/v1/contact_messages?received_at=gt.yesterday", "", nil, 400, "22007"},
		{"in without parentheses", "GET", "/rest/v1/contact_messages?id=in.m01,m02", "", nil, 400, "PGRST100"},
		{"a bad value in a list", "GET", "/rest/v1/contact_messages?spam=in.(true,perhaps)", "", nil, 400, "22P02"},
		{"or without parentheses", "GET", "/rest/v1/contact_messages?or=name.eq.Ada", "", nil, 400, "PGRST100"},
		{"or unbalanced", "GET", "/rest/v1/contact_messages?or=(name.eq.Ada,and(id.eq.m01)", "", nil, 400, "PGRST100"},
		{"or with a bare word", "GET", "/rest/v1/contact_messages?or=(Ada)", "", nil, 400, "PGRST100"},
		{"or on an unknown column", "GET", "/rest/v1/contact_messages?or=(secret.eq.1,id.eq.m01)", "", nil, 400, "42703"},
		{"order by an unknown column", "GET", "/rest/v1/contact_messages?order=secret.desc", "", nil, 400, "42703"},
		{"order with a bad direction", "GET", "/rest/v1/contact_messages?order=name.sideways", "", nil, 400, "PGRST100"},
		{"a negative limit", "GET", "/rest/v1/contact_messages?limit=-1", "", nil, 400, "PGRST100"},
		{"a limit that is not a number", "GET", "/rest/v1/contact_messages?limit=ten", "", nil, 400, "PGRST100"},
		{"an upside-down range", "GET", "/rest/v1/contact_messages", "", []string{"Range", "5-2"}, 416, "PGRST103"},
		{"an offset past the total", "GET", "/rest/v1/contact_messages?offset=5", "", []string{"Prefer", "count=exact"}, 416, "PGRST103"},
		{"single with two rows", "GET", "/rest/v1/contact_messages", "", []string{"Accept", "application/vnd.pgrst.object+json"}, 406, "PGRST116"},
		{"a media type not offered", "GET", "/rest/v1/contact_messages", "", []string{"Accept", "application/xml"}, 406, "PGRST107"},
		{"insert", "POST", "/rest/v1/contact_messages", `{"name":"x"}`, nil, 405, "PGRST117"},
		{"delete", "DELETE", "/rest/v1/contact_messages?id=eq.m01", "", nil, 405, "PGRST117"},
		{"patch without a filter", "PATCH", "/rest/v1/contact_messages", `{"spam":true}`, nil, 400, "21000"},
		{"patch of a column that may not change", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"message":"edited"}`, nil, 403, "42501"},
		{"patch of an unknown column", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"secret":1}`, nil, 400, "PGRST204"},
		{"patch of a read-only table", "PATCH", "/rest/v1/subscribers?email=eq.a@b.c", `{"email":"x"}`, nil, 403, "42501"},
		{"patch spam to null", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"spam":null}`, nil, 400, "23502"},
		{"patch spam to a number", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"spam":1}`, nil, 400, "22P02"},
		{"patch a bad time", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"handled_at":"soon"}`, nil, 400, "22007"},
		{"patch handled_by as someone else", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"handled_by":"bob@studio.test"}`, nil, 403, "42501"},
		{"patch with a body that is not JSON", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `spam=true`, nil, 400, "PGRST102"},
		{"patch with an array", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `[{"spam":true}]`, nil, 400, "PGRST102"},
		{"patch with two objects", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"spam":true}{}`, nil, 400, "PGRST102"},
		{"patch with a body too large", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"message":"` + strings.Repeat("x", api.MaxBodyBytes) + `"}`, nil, 413, "PGRST102"},
		{"patch as a form", "PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"spam":true}`, []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "PGRST107"},
		{"patch with a limit", "PATCH", "/rest/v1/contact_messages?id=eq.m01&limit=1", `{"spam":true}`, nil, 400, "PGRST100"},
		{"a value that is not UTF-8", "GET", "/rest/v1/contact_messages?name=eq.%FF", "", nil, 400, "22021"},
		{"a NUL in a value", "GET", "/rest/v1/contact_messages?name=eq.a%00b", "", nil, 400, "22021"},
		{"too many conditions", "GET", "/rest/v1/contact_messages?or=(" + strings.Repeat("id.eq.x,", 100) + "id.eq.y)", "", nil, 400, "PGRST100"},
		{"too deep", "GET", "/rest/v1/contact_messages?or=(" + strings.Repeat("and(", 9) + "id.eq.x" + strings.Repeat(")", 9) + ")", "", nil, 400, "PGRST100"},
		{"too long a list", "GET", "/rest/v1/contact_messages?id=in.(" + strings.Repeat("x,", 1000) + "y)", "", nil, 400, "PGRST100"},
		{"too long a pattern", "GET", "/rest/v1/contact_messages?message=like.*" + strings.Repeat("a", 1000) + "*", "", nil, 400, "PGRST100"},
		{"a raw semicolon", "GET", "/rest/v1/contact_messages?id=eq.a;b", "", nil, 400, "PGRST100"},
		{"a raw semicolon in a patch", "PATCH", "/rest/v1/contact_messages?spam=is.false&id=eq.a;b", `{"spam":true}`, nil, 400, "PGRST100"},
		{"too many columns", "GET", "/rest/v1/contact_messages?select=" + strings.Repeat("id,", 50) + "id", "", nil, 400, "PGRST100"},
		{"too many sort keys", "GET", "/rest/v1/contact_messages?order=" + strings.Repeat("id,", 10) + "id", "", nil, 400, "PGRST100"},
		{"a preflight from another site", "OPTIONS", "/rest/v1/contact_messages", "", []string{"Origin", "https://evil.test"}, 403, "42501"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.do(tt.method, tt.target, tt.body, tt.headers...)
			if r.status != tt.status || r.err.Code != tt.code || r.err.Message == "" {
				t.Errorf("%s %s = %d %s, want %d %s", tt.method, tt.target, r.status, r.body, tt.status, tt.code)
			}
			if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") || !strings.Contains(r.body, `"details":`) || !strings.Contains(r.body, `"hint":`) {
				t.Errorf("not PostgREST's error shape: %s %s", r.header.Get("Content-Type"), r.body)
			}
		})
	}
}

// TestNoServerErrors: odd requests that get past the parser still never
// make either engine fail: every answer is below 500.
func TestNoServerErrors(t *testing.T) {
	queries := []string{
		"received_at=gt.0001-01-01T00:00:00Z", "received_at=lt.9999-12-31T23:59:59.999999Z",
		"received_at=eq.2025-05-16", "received_at=gte.2025-05-16 09:00:00.123456789%2B05:30",
		"limit=9223372036854775807&offset=9223372036854775807", "offset=9223372036854775807",
		"name=like." + strings.Repeat("*", 400), `name=like.\`, "name=ilike.[[[", "name=like.%25_%25_",
		"name=eq." + strings.Repeat("é", 20000), "name=in.(" + strings.Repeat(`"a\"b",`, 999) + "c)",
		`or=(name.eq."",name.is.null)`, "spam=in.(true,false,t,f,yes,no,1,0)", "spam=is.unknown",
		"or=(" + strings.Repeat("and(", 7) + "id.eq.x" + strings.Repeat(")", 7) + ")",
		"select=" + strings.Repeat("message,", 49) + "id", "order=" + strings.Repeat("name.desc.nullsfirst,", 9) + "id",
		"id=eq.'%3B DROP TABLE contact_messages%3B --", "name=like.'%25' OR 1=1 --",
	}
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newFixtureOn(t, engine)
			for _, q := range queries {
				params, err := url.ParseQuery(q)
				if err != nil {
					t.Fatal(err)
				}
				for _, prefer := range []string{"", "count=exact"} {
					if r := f.do("GET", "/rest/v1/contact_messages?"+params.Encode(), "", "Prefer", prefer); r.status >= 500 {
						t.Errorf("%.80s (%s) = %d %s", q, prefer, r.status, r.body)
					}
				}
			}
			r := f.do("PATCH", "/rest/v1/contact_messages?id=eq.m01", `{"handled_at":"0001-01-01T00:00:00Z","spam":"yes"}`)
			if r.status != 204 {
				t.Errorf("patch with odd values = %d %s", r.status, r.body)
			}
			if r := f.do("GET", "/rest/v1/contact_messages?select=id&order=id", ""); r.body != `[{"id":"m01"},{"id":"m02"}]` {
				t.Errorf("the table after all that = %s", r.body)
			}
		})
	}
}

// TestSignedOutAndAAL: a token whose session ended is 401; a session at
// aal1 when aal2 is required is 403.
func TestSignedOutAndAAL(t *testing.T) {
	f := newFixture(t)
	mfa := rest.New(f.db, auth.New(f.db, auth.Config{SiteOrigin: authtest.Origin, MFAKey: authtest.SecretKey, RequireMFA: true}), rest.Config{})
	r := httptest.NewRequest("GET", "/rest/v1/contact_messages", nil)
	r.Header.Set("Authorization", "Bearer "+f.token)
	w := httptest.NewRecorder()
	mfa.ServeHTTP(w, r)
	if w.Code != 403 || !strings.Contains(w.Body.String(), `"42501"`) {
		t.Errorf("aal1 with --require-mfa = %d %s, want 403 42501", w.Code, w.Body)
	}
	authtest.SignOut(t, f.db, "ada@studio.test")
	if r := f.do("GET", "/rest/v1/contact_messages", ""); r.status != 401 || r.err.Code != "PGRST303" {
		t.Errorf("signed out = %d %s, want 401 PGRST303", r.status, r.body)
	}
}

// TestReads: status, Content-Range and representation of reads.
func TestReads(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, target string
		headers      []string
		status       int
		contentRange string
		body         string
	}{
		{"all", "/rest/v1/contact_messages?select=id", nil, 200, "0-1/*", `[{"id":"m01"},{"id":"m02"}]`},
		{"counted", "/rest/v1/contact_messages?select=id", []string{"Prefer", "count=exact"}, 200, "0-1/2", `[{"id":"m01"},{"id":"m02"}]`},
		{"a partial page", "/rest/v1/contact_messages?select=id&limit=1&order=received_at.desc", []string{"Prefer", "count=exact"}, 206, "0-0/2", `[{"id":"m02"}]`},
		{"the Range header", "/rest/v1/contact_messages?select=id", []string{"Range", "1-5", "Range-Unit", "items"}, 200, "1-1/*", `[{"id":"m02"}]`},
		{"Range and limit intersect", "/rest/v1/contact_messages?select=id&limit=1", []string{"Range", "1-5"}, 200, "*/*", `[]`},
		{"past the end with the total", "/rest/v1/contact_messages?select=id&offset=2", []string{"Prefer", "count=exact"}, 206, "*/2", `[]`},
		{"single", "/rest/v1/contact_messages?select=id,spam&id=eq.m01", []string{"Accept", "application/vnd.pgrst.object+json"}, 200, "0-0/*", `{"id":"m01","spam":false}`},
		{"stripped nulls", "/rest/v1/contact_messages?select=id,company&id=eq.m01", []string{"Accept", "application/vnd.pgrst.array+json;nulls=stripped"}, 200, "0-0/*", `[{"id":"m01"}]`},
		{"CSV of the export columns", "/rest/v1/contact_messages?id=eq.m01", []string{"Accept", "text/csv"}, 200, "0-0/*",
			"id,received_at,spam,name,email,company,phone,message\nm01,2025-05-16T09:00:00Z,false,Ada,ada@example.com,,,Hello\n"},
		{"CSV of listed columns", "/rest/v1/contact_messages?select=id,handled_at&id=eq.m01", []string{"Accept", "text/csv"}, 200, "0-0/*", "id,handled_at\nm01,\n"},
		{"times as PostgREST writes them", "/rest/v1/contact_messages?select=received_at&id=eq.m02", nil, 200, "0-0/*", `[{"received_at":"2025-05-16T09:01:00+00:00"}]`},
		{"public schema", "/rest/v1/subscribers", []string{"Accept-Profile", "public"}, 200, "*/*", `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.do("GET", tt.target, "", tt.headers...)
			if r.status != tt.status || r.header.Get("Content-Range") != tt.contentRange || r.body != tt.body {
				t.Errorf("GET %s = %d %q %s, want %d %q %s", tt.target, r.status, r.header.Get("Content-Range"), r.body, tt.status, tt.contentRange, tt.body)
			}
			h := f.do("HEAD", tt.target, "", tt.headers...)
			if h.status != tt.status || h.header.Get("Content-Range") != tt.contentRange || h.body != "" {
				t.Errorf("HEAD %s = %d %q %q", tt.target, h.status, h.header.Get("Content-Range"), h.body)
			}
		})
	}
}

// TestCSVSafeInSpreadsheet: in a CSV answer a cell that a spreadsheet would
// read as a formula is prefixed with a single quote; JSON keeps the values.
func TestCSVSafeInSpreadsheet(t *testing.T) {
	f := newFixture(t)
	m := contact.Message{ID: "m09", ReceivedAt: time.Date(2025, 5, 17, 9, 0, 0, 0, time.UTC), Name: `=HYPERLINK("https://evil.example","x")`,
		Email: "@evil.example", Company: ptr("-2+3"), Phone: ptr("+1 555"), Message: "\t=cmd|' /C calc'!A0"}
	if _, err := f.db.CreateContactMessage(context.Background(), m, nil); err != nil {
		t.Fatal(err)
	}
	r := f.do("GET", "/rest/v1/contact_messages?id=eq.m09&select=name,email,company,phone,message", "", "Accept", "text/csv")
	want := "name,email,company,phone,message\n" + `"'=HYPERLINK(""https://evil.example"",""x"")",'@evil.example,'-2+3,'+1 555,'` + "\t=cmd|' /C calc'!A0\n"
	if r.status != 200 || r.body != want {
		t.Errorf("CSV = %d\n%s\nwant\n%s", r.status, r.body, want)
	}
	r = f.do("GET", "/rest/v1/contact_messages?id=eq.m09&select=name,email,company,phone,message", "")
	if want := `[{"name":"=HYPERLINK(\"https://evil.example\",\"x\")","email":"@evil.example","company":"-2+3","phone":"+1 555","message":"\t=cmd|' /C calc'!A0"}]`; r.body != want {
		t.Errorf("JSON = %s, want %s", r.body, want)
	}
}

func ptr(s string) *string { return &s }

// TestPatch: an update answers the updated rows and may record only the
// caller as the one who handled a message.
func TestPatch(t *testing.T) {
	f := newFixture(t)
	r := f.do("PATCH", "/rest/v1/contact_messages?id=eq.m01&select=id,handled_at,handled_by", `{"handled_at":"2025-05-16T10:00:00.5Z","handled_by":"ADA@studio.test"}`,
		"Prefer", "return=representation")
	if r.status != 200 || r.body != `[{"id":"m01","handled_at":"2025-05-16T10:00:00.5+00:00","handled_by":"ADA@studio.test"}]` {
		t.Errorf("patch = %d %s", r.status, r.body)
	}
	r = f.do("PATCH", "/rest/v1/contact_messages?id=in.(m01,m02)", `{"spam":true}`, "Prefer", "count=exact")
	if r.status != 204 || r.body != "" || r.header.Get("Content-Range") != "0-1/2" {
		t.Errorf("patch without representation = %d %q %s", r.status, r.header.Get("Content-Range"), r.body)
	}
	r = f.do("PATCH", "/rest/v1/contact_messages?id=eq.nope", `{"spam":true}`, "Prefer", "return=representation")
	if r.status != 200 || r.body != "[]" {
		t.Errorf("patch of no row = %d %s", r.status, r.body)
	}
}

// TestCORS: the preflight and the headers the client reads, for
// --allowed-origins only.
func TestCORS(t *testing.T) {
	f := newFixture(t)
	pre := f.do("OPTIONS", "/rest/v1/contact_messages", "", "Origin", "https://console.test", "Authorization", "")
	if pre.status != 204 || !strings.Contains(pre.header.Get("Access-Control-Allow-Headers"), "prefer") ||
		!strings.Contains(pre.header.Get("Access-Control-Allow-Methods"), "PATCH") {
		t.Errorf("preflight = %d %v", pre.status, pre.header)
	}
	r := f.do("GET", "/rest/v1/contact_messages", "", "Origin", "https://console.test")
	if r.header.Get("Access-Control-Allow-Origin") != "https://console.test" || !strings.Contains(r.header.Get("Access-Control-Expose-Headers"), "content-range") {
		t.Errorf("CORS headers = %v", r.header)
	}
}

// TestAnalyticsSummary: rpc/analytics_summary answers what the site did,
// by POST (supabase-js's rpc) or GET, filtered, and says whether the server
// counts at all.
func TestAnalyticsSummary(t *testing.T) {
	f := newFixture(t)
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	err := f.db.WriteAnalytics(context.Background(), analytics.Batch{At: day, Views: []analytics.View{
		{Visitor: "a", At: day.Add(9 * time.Hour), Path: "/", Source: "news.example", Browser: "Firefox", OS: "Linux", Device: "desktop"},
		{Visitor: "b", At: day.Add(10 * time.Hour), Path: "/contact", Browser: "Safari", OS: "iOS", Device: "phone"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var sum analytics.Summary
	read := func(r response) {
		t.Helper()
		if r.status != 200 || r.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("%d %s", r.status, r.body)
		}
		sum = analytics.Summary{}
		if err := json.Unmarshal([]byte(r.body), &sum); err != nil {
			t.Fatal(err)
		}
	}
	read(f.do("POST", "/rest/v1/rpc/analytics_summary", `{"since":"2026-03-02T00:00:00Z","until":"2026-03-03T00:00:00Z","interval":"hour"}`))
	if sum.Views != 2 || len(sum.Series) != 24 || sum.Series[9].Views != 1 || sum.Series[10].Views != 1 || sum.Enabled {
		t.Errorf("hourly: %d views, series %+v, enabled %v; want 2 views at 9:00 and 10:00, and not enabled", sum.Views, sum.Series, sum.Enabled)
	}
	read(f.do("POST", "/rest/v1/rpc/analytics_summary", `{"since":"2026-03-02T00:00:00Z","until":"2026-03-03T00:00:00Z","filters":{"device":"phone"}}`))
	if sum.Views != 1 || sum.Pages[0].Path != "/contact" || sum.Interval != analytics.Day {
		t.Errorf("phones, daily: %d views, pages %+v, interval %s", sum.Views, sum.Pages, sum.Interval)
	}
	f.svc = rest.New(f.db, f.gate, rest.Config{Analytics: true})
	read(f.do("GET", "/rest/v1/rpc/analytics_summary?since=2026-03-02T00:00:00Z&until=2026-03-03T00:00:00Z", ""))
	if !sum.Enabled || sum.Visitors != 2 {
		t.Errorf("GET with analytics on: enabled %v, %d visitors", sum.Enabled, sum.Visitors)
	}
}
