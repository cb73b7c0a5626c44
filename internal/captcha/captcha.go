// Package captcha checks the tokens a CAPTCHA widget (hCaptcha or Cloudflare
// Turnstile) gives a browser, with the provider's siteverify endpoint, as
// GoTrue does: a form POST of the secret, the token and the client's
// address, whose JSON answer says whether the token is good.
package captcha

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The providers.
const (
	HCaptcha  = "hcaptcha"
	Turnstile = "turnstile"
)

// provider is what the site needs of a provider: where tokens are verified,
// where its widget script is, and the origins its widget loads from (the
// Content-Security-Policy must admit them).
type provider struct {
	verifyURL, scriptURL string
	origins              []string
}

var providers = map[string]provider{
	HCaptcha: {
		verifyURL: "https://api.hcaptcha.com/siteverify",
		scriptURL: "https://js.hcaptcha.com/1/api.js",
		origins:   []string{"https://hcaptcha.com", "https://*.hcaptcha.com"},
	},
	Turnstile: {
		verifyURL: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
		scriptURL: "https://challenges.cloudflare.com/turnstile/v0/api.js",
		origins:   []string{"https://challenges.cloudflare.com"},
	},
}

// maxTokenLength bounds a token: a longer one is refused without asking the
// provider (Turnstile's are at most 2048 characters, hCaptcha's shorter
// than this).
const maxTokenLength = 8192

// verifyTimeout bounds one siteverify call.
const verifyTimeout = 10 * time.Second

// Verifier verifies tokens with one provider. Build it with New.
type Verifier struct {
	provider  string
	secret    string
	verifyURL string
	scriptURL string
	siteKey   string
	origins   []string
	client    *http.Client
}

// Config is the operator's choice of provider (--captcha-* flags).
type Config struct {
	Provider  string // hcaptcha or turnstile
	Secret    string
	SiteKey   string // the public key the widget is shown with
	VerifyURL string // empty: the provider's siteverify
	ScriptURL string // empty: the provider's widget script
	Client    *http.Client
}

// New checks cfg and returns its verifier; nil, nil when no provider is set.
func New(cfg Config) (*Verifier, error) {
	if cfg.Provider == "" {
		if cfg.Secret != "" || cfg.SiteKey != "" || cfg.VerifyURL != "" || cfg.ScriptURL != "" {
			return nil, errors.New("the other captcha settings need a provider (hcaptcha or turnstile)")
		}
		return nil, nil
	}
	p, ok := providers[cfg.Provider]
	if !ok {
		return nil, fmt.Errorf("captcha provider %q: want hcaptcha or turnstile", cfg.Provider)
	}
	if cfg.Secret == "" {
		return nil, errors.New("a captcha provider needs its secret")
	}
	v := &Verifier{provider: cfg.Provider, secret: cfg.Secret, siteKey: cfg.SiteKey, verifyURL: p.verifyURL,
		scriptURL: p.scriptURL, origins: p.origins, client: cfg.Client}
	if cfg.VerifyURL != "" {
		if _, err := httpURL(cfg.VerifyURL); err != nil {
			return nil, fmt.Errorf("captcha verify URL: %w", err)
		}
		v.verifyURL = cfg.VerifyURL
	}
	if cfg.ScriptURL != "" {
		u, err := httpURL(cfg.ScriptURL)
		if err != nil {
			return nil, fmt.Errorf("captcha script URL: %w", err)
		}
		v.scriptURL = cfg.ScriptURL
		v.origins = []string{u.Scheme + "://" + u.Host} // a self-hosted widget: only its origin
	}
	if v.client == nil {
		v.client = &http.Client{Timeout: verifyTimeout}
	}
	return v, nil
}

func httpURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("%q: want an http(s) URL without user", raw)
	}
	return u, nil
}

// Provider, SiteKey and ScriptURL are what a page needs to show the widget;
// Origins are the origins the widget loads its script and frames from.
func (v *Verifier) Provider() string  { return v.provider }
func (v *Verifier) SiteKey() string   { return v.siteKey }
func (v *Verifier) ScriptURL() string { return v.scriptURL }
func (v *Verifier) Origins() []string { return v.origins }

// ErrNoToken is Verify's answer to an empty token.
var ErrNoToken = errors.New("no captcha response (captcha_token) found in request")

// RejectedError is Verify's answer to a token the provider says is not
// good (or one too long to be one): Codes are the provider's error-codes.
type RejectedError struct{ Codes []string }

func (e *RejectedError) Error() string {
	if len(e.Codes) == 0 {
		return "captcha token rejected"
	}
	return "captcha token rejected: " + strings.Join(e.Codes, ", ")
}

// IsRefusal tells whether err, from Verify, is the client's fault (no token,
// or one the provider rejects), not a provider that could not be asked.
func IsRefusal(err error) bool {
	var rejected *RejectedError
	return errors.Is(err, ErrNoToken) || errors.As(err, &rejected)
}

// Verify asks the provider, once, whether token is good for a visitor at
// remoteIP (empty: not sent). It returns nil for a good token, ErrNoToken or
// a *RejectedError for a bad one, and another error when the provider could
// not be asked or answered nonsense: the caller must then refuse too.
func (v *Verifier) Verify(ctx context.Context, token, remoteIP string) error {
	token = strings.TrimSpace(token)
	switch {
	case token == "":
		return ErrNoToken
	case len(token) > maxTokenLength:
		return &RejectedError{Codes: []string{"invalid-input-response"}}
	}
	form := url.Values{"secret": {v.secret}, "response": {token}}
	if remoteIP != "" {
		form.Set("remoteip", remoteIP)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.verifyURL, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := v.client.Do(req)
	if err != nil {
		return fmt.Errorf("captcha siteverify: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("captcha siteverify: status %d", res.StatusCode)
	}
	var answer struct {
		Success    *bool    `json:"success"`
		ErrorCodes []string `json:"error-codes"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&answer); err != nil || answer.Success == nil {
		return fmt.Errorf("captcha siteverify: an answer without success: %v", err)
	}
	if !*answer.Success {
		return &RejectedError{Codes: answer.ErrorCodes}
	}
	return nil
}
