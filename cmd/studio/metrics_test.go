package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestMetrics: --metrics-addr serves the Prometheus text format on its own
// address (never on the site's), counting requests by route class and
// status, submissions by outcome and rate-limited requests.
func TestMetrics(t *testing.T) {
	addrs := serveInProcess(t, 2, "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--rate-limit", "2/1h", "--auth-rate-limit", "1/1h", "--data", t.TempDir())
	site := "http://" + addrs["http"]
	postAs := func(contentType, origin, body string) int {
		req, err := http.NewRequest("POST", site+"/functions/v1/submit-contact", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", contentType)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	post := func(body string) int { return postAs("application/json", "", body) }
	for path, want := range map[string]int{"/": 200, "/no-such-page": 404, "/metrics": 404} {
		resp, err := http.Get(site + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s on the site = %d, want %d", path, resp.StatusCode, want)
		}
	}
	for _, tt := range []struct {
		body string
		want int
	}{
		{`{"name":"Ada","email":"ada@example.com","company":null,"phone":null,"message":"Hello"}`, 200},
		{`{"name":"","email":"not an address","company":null,"phone":null,"message":"Hello"}`, 400},
		{`{"name":"Bot","email":"bot@example.com","company":null,"phone":null,"message":"Hi","website":"spam.example"}`, 200},
		{`{"name":"Ada","email":"ada@example.com","company":null,"phone":null,"message":"Again"}`, 429},
	} {
		if got := post(tt.body); got != tt.want {
			t.Errorf("POST %s = %d, want %d", tt.body, got, tt.want)
		}
	}
	// Refused before the rate limit: a body that is neither JSON nor a
	// form, and a form posted from another site's page.
	if got := postAs("text/plain", "", "Hello"); got != 415 {
		t.Errorf("POST text/plain = %d, want 415", got)
	}
	if got := postAs("application/x-www-form-urlencoded", "https://evil.example", "name=Ada"); got != 403 {
		t.Errorf("POST a form from another site = %d, want 403", got)
	}

	// A wrong code, then a request over the auth limit.
	for _, want := range []int{403, 429} {
		resp, err := http.Post(site+"/auth/v1/verify", "application/json",
			strings.NewReader(`{"email":"nobody@example.com","token":"123456","type":"email"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("POST /auth/v1/verify = %d, want %d", resp.StatusCode, want)
		}
	}

	// A websocket open while the metrics are read.
	ws, _, err := websocket.Dial(context.Background(), "ws://"+addrs["http"]+"/realtime/v1/websocket?vsn=2.0.0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()

	scrape := func() string {
		resp, err := http.Get("http://" + addrs["metrics"] + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	// The server counts the websocket just after its handshake: wait for it.
	text := scrape()
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(text, "studio_realtime_connections 1") && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		text = scrape()
	}
	for _, want := range []string{
		`studio_http_requests_total{code="200",route="pages"} 1`,
		`studio_http_requests_total{code="404",route="pages"} 2`,
		`studio_http_requests_total{code="429",route="functions"} 1`,
		`studio_http_requests_total{code="415",route="functions"} 1`,
		`studio_http_requests_total{code="403",route="functions"} 1`,
		`studio_http_request_duration_seconds_count{route="functions"} 6`,
		`studio_submissions_total{function="submit-contact",outcome="accepted"} 1`,
		`studio_submissions_total{function="submit-contact",outcome="spam"} 1`,
		`studio_submissions_total{function="submit-contact",outcome="invalid"} 1`,
		`studio_submissions_total{function="submit-contact",outcome="rate-limited"} 1`,
		`studio_submissions_total{function="submit-contact",outcome="unsupported-media-type"} 1`,
		`studio_submissions_total{function="submit-contact",outcome="cross-site-form"} 1`,
		`studio_rate_limited_total{limit="functions/submit-contact"} 1`,
		`studio_outbox_depth 0`,
		`studio_store_up 1`,
		"studio_store_last_commit_timestamp_seconds ",
		`studio_auth_sign_ins_total{result="otp_expired"} 1`,
		`studio_rate_limited_total{limit="auth/verify"} 1`,
		`studio_realtime_connections 1`,
		`studio_changefeed_listening 1`,
		"go_goroutines ",
	} {
		if !strings.Contains(text, want+"\n") && !strings.Contains(text, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(text, "studio_store_last_commit_timestamp_seconds 0\n") {
		t.Error("no last commit after an accepted contact message")
	}
	if t.Failed() {
		t.Log(text)
	}
}
