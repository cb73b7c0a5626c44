package sms

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// gateway is an HTTP peer in the Messages API's shape that answers each
// post with the next of its answers (a status, or 0 to drop the
// connection), then 201 with a sid.
type gateway struct {
	mu      sync.Mutex
	answers []int
	posts   []string // the form of each post, with its Basic auth user
}

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	user, _, _ := r.BasicAuth()
	g.mu.Lock()
	g.posts = append(g.posts, user+" "+r.PostForm.Encode())
	status := http.StatusCreated
	if len(g.answers) > 0 {
		status, g.answers = g.answers[0], g.answers[1:]
	}
	g.mu.Unlock()
	switch {
	case status == 0:
		conn, _, _ := w.(http.Hijacker).Hijack()
		_ = conn.Close()
	case status == http.StatusCreated:
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"sid":"SM123"}`))
	default:
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "0")
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"code":20003,"message":"nope"}`))
	}
}

func (g *gateway) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.posts)
}

func newGateway(t *testing.T, waits time.Duration, answers ...int) (*gateway, *Twilio) {
	t.Helper()
	g := &gateway{answers: answers}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	tw, err := NewTwilio(strings.Replace(srv.URL, "://", "://AC1:token@", 1)+"/Messages.json", "+15550001111", nil)
	if err != nil {
		t.Fatal(err)
	}
	tw.waits = []time.Duration{waits, waits}
	return g, tw
}

// TestSendRetries: a message the gateway could not take (no answer, 5xx,
// 429) is posted again, the same, up to three times in all; one it
// refused is not.
func TestSendRetries(t *testing.T) {
	for _, tt := range []struct {
		name    string
		answers []int
		sent    bool
		posts   int
	}{
		{"taken at once", nil, true, 1},
		{"5xx, then taken", []int{503, 500}, true, 3},
		{"connection dropped, then taken", []int{0}, true, 2},
		{"rate limited, then taken", []int{429}, true, 2},
		{"5xx three times", []int{503, 502, 500}, false, 3},
		{"refused", []int{400}, false, 1},
		{"unauthorised", []int{401}, false, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, tw := newGateway(t, time.Millisecond, tt.answers...)
			sid, err := tw.Send(context.Background(), "15550002222", ChannelSMS, "Your code is 123456")
			if (err == nil) != tt.sent || (tt.sent && sid != "SM123") {
				t.Errorf("Send = %q, %v", sid, err)
			}
			if g.count() != tt.posts {
				t.Errorf("posted %d times, want %d", g.count(), tt.posts)
			}
			for _, p := range g.posts {
				if p != g.posts[0] || !strings.HasPrefix(p, "AC1 ") || !strings.Contains(p, "To=%2B15550002222") {
					t.Errorf("post %q, first %q", p, g.posts[0])
				}
			}
			if err != nil && strings.Contains(err.Error(), "token") {
				t.Errorf("the error quotes the token: %v", err)
			}
		})
	}
}

// TestSendStopsWithItsContext: a wait before trying again ends with the
// context (the server shutting down), with the gateway's error and why.
func TestSendStopsWithItsContext(t *testing.T) {
	g, tw := newGateway(t, time.Hour, 503)
	answered := make(chan struct{}, 1)
	tw.client.Transport = answeredTransport{answered}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := tw.Send(ctx, "15550002222", ChannelSMS, "Your code is 123456")
		done <- err
	}()
	<-answered // the 503 is in; cancelling now ends the wait, not the post
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "status 503") || g.count() != 1 {
		t.Errorf("Send = %v after %d posts", err, g.count())
	}
}

// answeredTransport tells of each answer the client has received.
type answeredTransport struct{ answered chan<- struct{} }

func (a answeredTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		a.answered <- struct{}{}
	}
	return res, err
}

func TestRetryAfter(t *testing.T) {
	for header, want := range map[string]time.Duration{
		"": 0, "2": 2 * time.Second, " 3 ": 3 * time.Second, "600": maxRetryAfter, "-1": 0,
		"Wed, 21 Oct 2026 07:28:00 GMT": 0,
	} {
		if got := retryAfter(header); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", header, got, want)
		}
	}
}
