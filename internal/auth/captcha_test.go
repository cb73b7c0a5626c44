package auth_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"studio/internal/auth"
	"studio/internal/captcha"
)

// siteverifyPeer is an in-process peer that answers as a CAPTCHA
// provider's siteverify does: a token it issued is good once (like
// hCaptcha's and Turnstile's), any other is invalid-input-response. It
// keeps each form it was posted.
type siteverifyPeer struct {
	*httptest.Server
	mu     sync.Mutex
	issued map[string]bool
	posted []url.Values
	down   bool
}

const captchaSecret = "0x-test-secret"

func newSiteverifyPeer(t *testing.T) *siteverifyPeer {
	p := &siteverifyPeer{issued: map[string]bool{}}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.posted = append(p.posted, r.PostForm)
		if p.down {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch token := r.PostForm.Get("response"); {
		case r.PostForm.Get("secret") != captchaSecret:
			_, _ = w.Write([]byte(`{"success":false,"error-codes":["invalid-input-secret"]}`))
		case p.issued[token]:
			delete(p.issued, token)
			_, _ = w.Write([]byte(`{"success":true,"hostname":"studio.test"}`))
		default:
			_, _ = w.Write([]byte(`{"success":false,"error-codes":["invalid-input-response"]}`))
		}
	}))
	t.Cleanup(p.Close)
	return p
}

// token issues a good token, as the widget gives a visitor who passed.
func (p *siteverifyPeer) token() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	tok := "good-" + strings.Repeat("x", len(p.issued)+1) + "-" + string(rune('a'+len(p.posted)%26))
	p.issued[tok] = true
	return tok
}

func (p *siteverifyPeer) takePosted() []url.Values {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.posted
	p.posted = nil
	return out
}

func (p *siteverifyPeer) verifier(t *testing.T) *captcha.Verifier {
	v, err := captcha.New(captcha.Config{Provider: captcha.HCaptcha, Secret: captchaSecret, VerifyURL: p.URL + "/siteverify"})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// withToken is body (a JSON object) with the token where supabase-js puts
// options.captchaToken; "" leaves it out.
func withToken(body, token string) string {
	if token == "" {
		return body
	}
	return strings.TrimSuffix(body, "}") + `,"gotrue_meta_security":{"captcha_token":"` + token + `"}}`
}

// TestCaptcha: with a provider, every call GoTrue guards (/otp by e-mail
// and phone, /verify by e-mail and phone, /recover, /resend by e-mail and
// phone) needs a token the provider accepts: a missing or invalid one is
// 400 captcha_failed and does nothing; a good one is verified once with the
// provider (secret, token and the client's address) and the call goes on.
func TestCaptcha(t *testing.T) {
	peer := newSiteverifyPeer(t)
	f, sms := phoneFixture(t, sqlite(), "+15005550006", func(c *auth.Config) { c.Captcha = peer.verifier(t) })
	f.remoteAddr = "192.0.2.7:5555"
	calls := []struct {
		name, path, body string
		okStatus         int // with a good token (verify: a wrong code)
	}{
		{"otp by e-mail", "/otp", `{"email":"ada@studio.test"}`, 200},
		{"otp by phone", "/otp", `{"phone":"+` + gracePhone + `"}`, 200},
		{"verify by e-mail", "/verify", `{"email":"ada@studio.test","token":"000000","type":"email"}`, 403},
		{"verify by phone", "/verify", `{"phone":"+` + gracePhone + `","token":"000000","type":"sms"}`, 403},
		{"recover", "/recover", `{"email":"ada@studio.test"}`, 200},
		{"resend by e-mail", "/resend", `{"email":"ada@studio.test","type":"signup"}`, 200},
		{"resend by phone", "/resend", `{"phone":"+` + gracePhone + `","type":"sms"}`, 200},
		{"sso", "/sso", `{"domain":"nowhere.test","skip_http_redirect":true}`, 404},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			for _, bad := range []struct{ name, token string }{{"missing", ""}, {"invalid", "forged"}} {
				r := f.do("POST", "/auth/v1"+c.path, withToken(c.body, bad.token))
				if r.status != 400 || r.body["error_code"] != "captcha_failed" {
					t.Errorf("%s token = %d %s", bad.name, r.status, r.raw)
				}
			}
			if mails, texts := f.mail(), sms.take(f); mails != "" || len(texts) != 0 {
				t.Errorf("refused calls sent %q and %d texts", mails, len(texts))
			}
			peer.takePosted()
			r := f.do("POST", "/auth/v1"+c.path, withToken(c.body, peer.token()))
			if r.status != c.okStatus {
				t.Errorf("good token = %d %s, want %d", r.status, r.raw, c.okStatus)
			}
			posted := peer.takePosted()
			if len(posted) != 1 || posted[0].Get("secret") != captchaSecret || !strings.HasPrefix(posted[0].Get("response"), "good-") ||
				posted[0].Get("remoteip") != "192.0.2.7" {
				t.Errorf("siteverify got %v, want one post of secret, token and remoteip", posted)
			}
			f.mail()
			sms.take(f)
			f.clock.Advance(auth.EmailInterval)
		})
	}

	t.Run("a token works once", func(t *testing.T) {
		tok := peer.token()
		if r := f.do("POST", "/auth/v1/otp", withToken(`{"email":"ada@studio.test"}`, tok)); r.status != 200 {
			t.Fatalf("first use = %d %s", r.status, r.raw)
		}
		f.clock.Advance(auth.EmailInterval)
		if r := f.do("POST", "/auth/v1/otp", withToken(`{"email":"ada@studio.test"}`, tok)); r.status != 400 || r.body["error_code"] != "captcha_failed" {
			t.Errorf("second use = %d %s", r.status, r.raw)
		}
		f.mail()
	})

	t.Run("token refresh needs none", func(t *testing.T) {
		if r := f.do("POST", "/auth/v1/otp", withToken(`{"email":"ada@studio.test"}`, peer.token())); r.status != 200 {
			t.Fatalf("otp = %d %s", r.status, r.raw)
		}
		m := codeInMail.FindStringSubmatch(f.mail())
		if m == nil {
			t.Fatal("no code mailed")
		}
		code := m[1]
		r := f.do("POST", "/auth/v1/verify", withToken(`{"email":"ada@studio.test","token":"`+code+`","type":"email"}`, peer.token()))
		if r.status != 200 {
			t.Fatalf("verify = %d %s", r.status, r.raw)
		}
		peer.takePosted()
		f.refresh(r.body)
		if n := len(peer.takePosted()); n != 0 {
			t.Errorf("refresh asked the provider %d times", n)
		}
		f.clock.Advance(auth.EmailInterval)
	})

	t.Run("a provider that cannot answer refuses", func(t *testing.T) {
		peer.mu.Lock()
		peer.down = true
		peer.mu.Unlock()
		defer func() { peer.mu.Lock(); peer.down = false; peer.mu.Unlock() }()
		r := f.do("POST", "/auth/v1/otp", withToken(`{"email":"ada@studio.test"}`, peer.token()))
		if r.status != 500 || f.mail() != "" {
			t.Errorf("otp = %d %s", r.status, r.raw)
		}
	})
}
