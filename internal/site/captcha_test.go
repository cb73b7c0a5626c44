package site_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"studio/internal/site"
)

// TestCaptchaWidget: with Options.Captcha (--captcha-forms), the pages'
// marker tells the forms the widget's provider, site key and script (each
// escaped), and the pages' policy admits the widget's origins for scripts,
// frames, styles and connections; without it, the marker stays off and the
// policy admits no other origin.
func TestCaptchaWidget(t *testing.T) {
	fsys := fstest.MapFS{
		"contact/index.html": {Data: []byte(`<!DOCTYPE html><html><head><meta name="studio-captcha" content="off"></head><body>Contact</body></html>`)},
		"404/index.html":     {Data: []byte(`<!DOCTYPE html><html><body>Page Not Found</body></html>`)},
	}
	widget := &site.CaptchaWidget{Provider: "hcaptcha", SiteKey: `key"<x>`, ScriptURL: "https://js.hcaptcha.com/1/api.js",
		Origins: []string{"https://hcaptcha.com", "https://*.hcaptcha.com"}}
	tests := []struct {
		name       string
		captcha    *site.CaptchaWidget
		wantMarker string
		wantCSP    []string
		notInCSP   string
	}{
		{"off", nil, `<meta name="studio-captcha" content="off">`, nil, "hcaptcha"},
		{"on", widget,
			`<meta name="studio-captcha" content="on" data-provider="hcaptcha" data-site-key="key&#34;&lt;x&gt;" data-script-url="https://js.hcaptcha.com/1/api.js">`,
			[]string{"script-src 'self' https://hcaptcha.com https://*.hcaptcha.com", "frame-src 'self' https://hcaptcha.com https://*.hcaptcha.com",
				"style-src 'self' https://hcaptcha.com", "connect-src 'self' https://hcaptcha.com"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := site.New(fsys, site.Options{Captcha: tt.captcha})
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{"/contact", "/nowhere"} {
				w := do(s, "GET", path, nil)
				csp := w.Header().Get("Content-Security-Policy")
				for _, want := range tt.wantCSP {
					if !strings.Contains(csp, want) {
						t.Errorf("%s: policy %q lacks %q", path, csp, want)
					}
				}
				if tt.notInCSP != "" && strings.Contains(csp, tt.notInCSP) {
					t.Errorf("%s: policy %q admits %s", path, csp, tt.notInCSP)
				}
			}
			if body := do(s, "GET", "/contact", nil).Body.String(); !strings.Contains(body, tt.wantMarker) {
				t.Errorf("page = %s, want %s", body, tt.wantMarker)
			}
		})
	}
}
