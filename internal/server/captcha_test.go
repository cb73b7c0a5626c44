package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/captcha"
	"studio/internal/server"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// siteverify is an in-process peer answering as a CAPTCHA provider's
// siteverify: a token it issued is good once, any other is not.
type siteverify struct {
	*httptest.Server
	mu     sync.Mutex
	issued map[string]bool
	posted []url.Values
}

func newSiteverify(t *testing.T) *siteverify {
	p := &siteverify{issued: map[string]bool{}}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.posted = append(p.posted, r.PostForm)
		ok := r.PostForm.Get("secret") == "test-secret" && p.issued[r.PostForm.Get("response")]
		delete(p.issued, r.PostForm.Get("response"))
		_ = json.NewEncoder(w).Encode(map[string]any{"success": ok})
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *siteverify) token() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	tok := "tok-" + strings.Repeat("t", len(p.issued)+len(p.posted)+1)
	p.issued[tok] = true
	return tok
}

func (p *siteverify) verifier(t *testing.T) *captcha.Verifier {
	v, err := captcha.New(captcha.Config{Provider: captcha.Turnstile, Secret: "test-secret", SiteKey: "site", VerifyURL: p.URL})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFunctionsCaptcha: with --captcha-forms, each function needs a
// captcha_token (a top-level JSON field or a form field) that the provider
// accepts: missing or rejected, it is 400 with an error (a form post: the
// problem page that says the form needs JavaScript) and nothing is stored;
// a good one is verified once and the call goes on. Without it, a
// captcha_token is ignored.
func TestFunctionsCaptcha(t *testing.T) {
	peer := newSiteverify(t)
	db := storetest.MustOpen(t, store.Config{DataDir: t.TempDir()})
	h := newHandler(t, db, server.FunctionsConfig{Captcha: peer.verifier(t)})
	plain := newHandler(t, db, server.FunctionsConfig{})
	calls := []struct{ fn, body string }{
		{"submit-contact", `{"name":"Ada","email":"ada@example.com","company":null,"phone":null,"message":"Hi"%s}`},
		{"join-waitlist", `{"email":"ada@example.com","productId":"saas-2"%s}`},
		{"subscribe-newsletter", `{"email":"ada@example.com"%s}`},
	}
	stored := func() int {
		ctx := context.Background()
		m, _ := db.ListContactMessages(ctx, time.Time{})
		w, _ := db.ListWaitlist(ctx)
		s, _ := db.ListSubscribers(ctx)
		return len(m) + len(w) + len(s)
	}
	do := func(h http.Handler, fn, contentType, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/functions/v1/"+fn, strings.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, c := range calls {
		t.Run(c.fn, func(t *testing.T) {
			base := stored()
			stored := func() int { return stored() - base }
			for _, bad := range []string{"", `,"captcha_token":"forged"`, `,"captcha_token":42`} {
				w := do(h, c.fn, "application/json", strings.Replace(c.body, "%s", bad, 1))
				if w.Code != 400 || !strings.Contains(w.Body.String(), `"error":"`+msgs.Captcha+`"`) || stored() != 0 {
					t.Errorf("token %q = %d %s, %d stored", bad, w.Code, w.Body, stored())
				}
			}
			peer.mu.Lock()
			peer.posted = nil
			peer.mu.Unlock()
			tok := peer.token()
			if w := do(h, c.fn, "application/json", strings.Replace(c.body, "%s", `,"captcha_token":"`+tok+`"`, 1)); w.Code != 200 || stored() != 1 {
				t.Errorf("good token = %d %s, %d stored", w.Code, w.Body, stored())
			}
			if len(peer.posted) != 1 || peer.posted[0].Get("response") != tok {
				t.Errorf("siteverify got %v, want the token once", peer.posted)
			}
			if w := do(h, c.fn, "application/json", strings.Replace(c.body, "%s", `,"captcha_token":"`+tok+`"`, 1)); w.Code != 400 {
				t.Errorf("the token again = %d %s", w.Code, w.Body)
			}
			if w := do(plain, c.fn, "application/json", strings.Replace(c.body, "%s", `,"captcha_token":"anything"`, 1)); w.Code != 200 {
				t.Errorf("without --captcha-forms, a token = %d %s", w.Code, w.Body)
			}
		})
	}
	t.Run("a form field", func(t *testing.T) {
		body := "email=ada%40example.com&captcha_token=" + peer.token()
		if w := do(h, "subscribe-newsletter", formContentType, body); w.Code != 303 || w.Header().Get("Location") != "/resources/subscribed" {
			t.Errorf("= %d %v", w.Code, w.Header())
		}
	})
}
