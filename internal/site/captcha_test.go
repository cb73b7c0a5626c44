package site_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"studio/internal/site"
)

// TestCaptchaWidget: with Options.Captcha, the marker of the pages that show
// the widget (every page with --captcha-forms; only the console's, /admin,
// when only its sign-in needs one) tells their script the widget's provider,
// site key and script (each escaped), and their policy admits the widget's
// origins for scripts, frames, styles and connections; on every other page,
// and without Options.Captcha, the marker stays off and the policy admits no
// other origin.
func TestCaptchaWidget(t *testing.T) {
	const marker = `<meta name="studio-captcha" content="off">`
	fsys := fstest.MapFS{
		"contact/index.html": {Data: []byte(`<!DOCTYPE html><html><head>` + marker + `</head><body>Contact</body></html>`)},
		"admin/index.html":   {Data: []byte(`<!DOCTYPE html><html><head>` + marker + `</head><body>Console</body></html>`)},
		"404/index.html":     {Data: []byte(`<!DOCTYPE html><html><body>Page Not Found</body></html>`)},
	}
	widget := &site.CaptchaWidget{Provider: "hcaptcha", SiteKey: `key"<x>`, ScriptURL: "https://js.hcaptcha.com/1/api.js",
		Origins: []string{"https://hcaptcha.com", "https://*.hcaptcha.com"}}
	const markerOn = `<meta name="studio-captcha" content="on" data-provider="hcaptcha" data-site-key="key&#34;&lt;x&gt;" data-script-url="https://js.hcaptcha.com/1/api.js">`
	policyOn := []string{"script-src 'self' https://hcaptcha.com https://*.hcaptcha.com", "frame-src 'self' https://hcaptcha.com https://*.hcaptcha.com",
		"style-src 'self' https://hcaptcha.com", "connect-src 'self' https://hcaptcha.com"}
	tests := []struct {
		name    string
		opts    site.Options
		showing []string // the paths whose marker is on and whose policy admits the widget
		plain   []string // the paths with neither
	}{
		{"off", site.Options{}, nil, []string{"/contact", "/admin", "/nowhere"}},
		{"every page", site.Options{Captcha: widget}, []string{"/contact", "/admin", "/nowhere"}, nil},
		{"the console only", site.Options{Captcha: widget, CaptchaPages: []string{"/admin"}}, []string{"/admin"}, []string{"/contact", "/nowhere"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := site.New(fsys, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range tt.showing {
				w := do(s, "GET", path, nil)
				csp := w.Header().Get("Content-Security-Policy")
				for _, want := range policyOn {
					if !strings.Contains(csp, want) {
						t.Errorf("%s: policy %q lacks %q", path, csp, want)
					}
				}
				if body := w.Body.String(); path != "/nowhere" && !strings.Contains(body, markerOn) {
					t.Errorf("%s = %s, want %s", path, body, markerOn)
				}
			}
			for _, path := range tt.plain {
				w := do(s, "GET", path, nil)
				if csp := w.Header().Get("Content-Security-Policy"); strings.Contains(csp, "hcaptcha") || strings.Contains(csp, "frame-src") {
					t.Errorf("%s: policy %q admits the widget", path, csp)
				}
				if body := w.Body.String(); path != "/nowhere" && !strings.Contains(body, marker) {
					t.Errorf("%s = %s, want %s", path, body, marker)
				}
			}
		})
	}
}
