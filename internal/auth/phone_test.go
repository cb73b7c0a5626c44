package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"studio/internal/auth"
	"studio/internal/sms"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// smsPeer is an in-process HTTP peer that speaks the Messages API's shape
// (Twilio's): it keeps each message it is posted, with the Basic auth.
type smsPeer struct {
	*httptest.Server
	mu       sync.Mutex
	messages []smsMessage
}

type smsMessage struct {
	path, user, password string
	form                 url.Values
}

const smsPath = "/2010-04-01/Accounts/AC123/Messages.json"

func newSMSPeer(t *testing.T) *smsPeer {
	p := &smsPeer{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, password, _ := r.BasicAuth()
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		p.mu.Lock()
		p.messages = append(p.messages, smsMessage{r.URL.Path, user, password, r.PostForm})
		n := len(p.messages)
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"sid":"SM` + strings.Repeat("0", 31) + string(rune('0'+n%10)) + `","status":"queued"}`))
	}))
	t.Cleanup(p.Close)
	return p
}

// sender is the sender of the peer, from an --sms-url with the account's
// credentials, sending from from.
func (p *smsPeer) sender(t *testing.T, from string) *sms.Twilio {
	u, _ := url.Parse(p.URL + smsPath)
	u.User = url.UserPassword("AC123", "s3cret-token")
	s, err := sms.NewTwilio(u.String(), from, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// take returns the messages posted since the last take (after the work the
// service left for after its answers).
func (p *smsPeer) take(f *fixture) []smsMessage {
	f.svc.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.messages
	p.messages = nil
	return out
}

var codeInSMS = regexp.MustCompile(`\b(\d{6})\b`)

// code is the one code in the one message taken.
func (p *smsPeer) code(f *fixture) string {
	f.t.Helper()
	msgs := p.take(f)
	if len(msgs) != 1 {
		f.t.Fatalf("%d messages, want 1: %v", len(msgs), msgs)
	}
	m := codeInSMS.FindStringSubmatch(msgs[0].form.Get("Body"))
	if m == nil {
		f.t.Fatalf("no code in %q", msgs[0].form.Get("Body"))
	}
	return m[1]
}

const (
	gracePhone = "447700900123" // a member of staff's, GoTrue's form
	evePhone   = "447700900999" // no one's
)

// phoneFixture is a fixture whose service sends SMS through a peer, with
// Grace, a member of staff with a phone.
func phoneFixture(t *testing.T, engine storetest.Engine, from string, tweak ...func(*auth.Config)) (*fixture, *smsPeer) {
	peer := newSMSPeer(t)
	f := newFixture(t, engine, append([]func(*auth.Config){func(c *auth.Config) { c.SMS = peer.sender(t, from) }}, tweak...)...)
	now := f.clock.Now()
	grace := staff.User{ID: uuid.NewString(), Email: "grace@studio.test", Phone: gracePhone, CreatedAt: now, UpdatedAt: now}
	if err := f.db.CreateUser(context.Background(), grace, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	return f, peer
}

// TestPhoneSignIn: POST /otp {phone} sends a 6-digit code to staff's number
// through the Messages endpoint (the URL's path, its user and password as
// Basic auth, To in E.164, From) and answers {message_id}; POST /verify
// {phone, token, type: sms} signs in with amr otp; a number that is not
// staff's gets the same answer and nothing is sent.
func TestPhoneSignIn(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f, peer := phoneFixture(t, engine, "+15005550006")
			r := f.do("POST", "/auth/v1/otp", `{"phone":"+`+gracePhone+`","channel":"sms"}`)
			if r.status != 200 || uuid.Validate(r.body["message_id"].(string)) != nil || len(r.body) != 1 {
				t.Fatalf("otp = %d %s", r.status, r.raw)
			}
			msgs := peer.take(f)
			if len(msgs) != 1 {
				t.Fatalf("%d messages sent, want 1", len(msgs))
			}
			m := msgs[0]
			if m.path != smsPath || m.user != "AC123" || m.password != "s3cret-token" ||
				m.form.Get("To") != "+"+gracePhone || m.form.Get("From") != "+15005550006" || m.form.Has("MessagingServiceSid") {
				t.Errorf("message = %+v", m)
			}
			code := codeInSMS.FindString(m.form.Get("Body"))
			if !strings.Contains(m.form.Get("Body"), "studio.test") || code == "" {
				t.Fatalf("body = %q", m.form.Get("Body"))
			}

			other := f.do("POST", "/auth/v1/otp", `{"phone":"+`+evePhone+`"}`)
			if other.status != 200 || uuid.Validate(other.body["message_id"].(string)) != nil || len(other.body) != 1 {
				t.Errorf("otp of a number that is not staff's = %d %s", other.status, other.raw)
			}
			if n := len(peer.take(f)); n != 0 {
				t.Errorf("%d messages sent to a number that is not staff's", n)
			}

			v := f.do("POST", "/auth/v1/verify", `{"phone":"`+gracePhone+`","token":"`+code+`","type":"sms"}`)
			if v.status != 200 {
				t.Fatalf("verify = %d %s", v.status, v.raw)
			}
			user := v.body["user"].(map[string]any)
			if user["email"] != "grace@studio.test" || user["phone"] != gracePhone {
				t.Errorf("user = %v", user)
			}
			claims := f.claims(v.body["access_token"].(string))
			if amr := claims["amr"].([]any); len(amr) != 1 || amr[0].(map[string]any)["method"] != "otp" || claims["phone"] != gracePhone {
				t.Errorf("claims = %v", claims)
			}
			if again := f.do("POST", "/auth/v1/verify", `{"phone":"`+gracePhone+`","token":"`+code+`","type":"sms"}`); again.status != 403 || again.body["error_code"] != "otp_expired" {
				t.Errorf("the code again = %d %s", again.status, again.raw)
			}
		})
	}
}

// TestPhoneChannels: WhatsApp sends to and from whatsapp: numbers; a sender
// that is a messaging service id (MG…) goes as MessagingServiceSid.
func TestPhoneChannels(t *testing.T) {
	tests := []struct {
		name, from, channel string
		want                url.Values
	}{
		{"sms from a number", "+15005550006", "sms", url.Values{"To": {"+" + gracePhone}, "From": {"+15005550006"}}},
		{"whatsapp from a number", "+15005550006", "whatsapp", url.Values{"To": {"whatsapp:+" + gracePhone}, "From": {"whatsapp:+15005550006"}}},
		{"sms from a messaging service", "MG0123456789abcdef0123456789abcdef", "sms", url.Values{"To": {"+" + gracePhone}, "MessagingServiceSid": {"MG0123456789abcdef0123456789abcdef"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, peer := phoneFixture(t, sqlite(), tt.from)
			if r := f.do("POST", "/auth/v1/otp", `{"phone":"+`+gracePhone+`","channel":"`+tt.channel+`"}`); r.status != 200 {
				t.Fatalf("otp = %d %s", r.status, r.raw)
			}
			msgs := peer.take(f)
			if len(msgs) != 1 {
				t.Fatalf("%d messages", len(msgs))
			}
			got := msgs[0].form
			got.Del("Body")
			if got.Encode() != tt.want.Encode() {
				t.Errorf("form = %s, want %s", got.Encode(), tt.want.Encode())
			}
		})
	}
}

// TestPhoneLimits: a second code to one number within SMSInterval is 429
// over_sms_send_rate_limit, staff's or not; /resend {type: sms} sends a
// fresh code once the interval passed, and the older one is dead; a wrong
// code is 403 otp_expired, and after MaxCodeTries wrong ones the right one
// is refused too.
func TestPhoneLimits(t *testing.T) {
	f, peer := phoneFixture(t, sqlite(), "+15005550006")
	for _, phone := range []string{gracePhone, evePhone} {
		if r := f.do("POST", "/auth/v1/otp", `{"phone":"`+phone+`"}`); r.status != 200 {
			t.Fatalf("otp = %d %s", r.status, r.raw)
		}
		r := f.do("POST", "/auth/v1/resend", `{"type":"sms","phone":"`+phone+`"}`)
		if r.status != 429 || r.body["error_code"] != "over_sms_send_rate_limit" || r.header.Get("Retry-After") != "60" {
			t.Errorf("resend to %s at once = %d %s", phone, r.status, r.raw)
		}
	}
	first := peer.code(f)
	f.clock.Advance(auth.SMSInterval)
	r := f.do("POST", "/auth/v1/resend", `{"type":"sms","phone":"+`+gracePhone+`"}`)
	if r.status != 200 || uuid.Validate(r.body["message_id"].(string)) != nil {
		t.Fatalf("resend = %d %s", r.status, r.raw)
	}
	code := peer.code(f)
	if code != first {
		if old := f.do("POST", "/auth/v1/verify", `{"phone":"`+gracePhone+`","token":"`+first+`","type":"sms"}`); old.status != 403 {
			t.Errorf("the replaced code = %d %s", old.status, old.raw)
		}
	}
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	for i := range staff.MaxCodeTries {
		r := f.do("POST", "/auth/v1/verify", `{"phone":"`+gracePhone+`","token":"`+wrong+`","type":"sms"}`)
		if r.status != 403 || r.body["error_code"] != "otp_expired" {
			t.Fatalf("wrong code %d = %d %s", i+1, r.status, r.raw)
		}
	}
	if r := f.do("POST", "/auth/v1/verify", `{"phone":"`+gracePhone+`","token":"`+code+`","type":"sms"}`); r.status != 403 || r.body["error_code"] != "otp_expired" {
		t.Errorf("the right code after %d wrong = %d %s", staff.MaxCodeTries, r.status, r.raw)
	}
}

// TestPhoneRefusals: bad numbers, channels and types, and phone with SMS
// off (GoTrue's phone_provider_disabled).
func TestPhoneRefusals(t *testing.T) {
	f, _ := phoneFixture(t, sqlite(), "+15005550006")
	off := newFixture(t, sqlite())
	tests := []struct {
		name      string
		f         *fixture
		path      string
		body      string
		status    int
		errorCode string
	}{
		{"not E.164", f, "/otp", `{"phone":"07700 900123"}`, 400, "validation_failed"},
		{"unknown channel", f, "/otp", `{"phone":"+447700900123","channel":"pigeon"}`, 400, "validation_failed"},
		{"verify without a token", f, "/verify", `{"phone":"+447700900123","type":"sms"}`, 400, "validation_failed"},
		{"verify with a token_hash", f, "/verify", `{"phone":"+447700900123","token_hash":"abc","type":"sms"}`, 400, "validation_failed"},
		{"verify sms without a phone", f, "/verify", `{"email":"ada@studio.test","token":"123456","type":"sms"}`, 400, "validation_failed"},
		{"otp with SMS off", off, "/otp", `{"phone":"+447700900123"}`, 400, "phone_provider_disabled"},
		{"verify with SMS off", off, "/verify", `{"phone":"+447700900123","token":"123456","type":"sms"}`, 400, "phone_provider_disabled"},
		{"resend with SMS off", off, "/resend", `{"phone":"+447700900123","type":"sms"}`, 400, "phone_provider_disabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.f.do("POST", "/auth/v1"+tt.path, tt.body)
			if r.status != tt.status || r.body["error_code"] != tt.errorCode {
				t.Errorf("= %d %s, want %d %s", r.status, r.raw, tt.status, tt.errorCode)
			}
		})
	}
}

// TestPhoneFactor: a phone second factor: enrolment answers the number, a
// challenge sends a code to it (the number's send limit applies), a wrong
// code is 422 mfa_verification_failed, the right one raises the session to
// aal2 with amr mfa/phone; a number may be one verified factor of a user.
func TestPhoneFactor(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f, peer := phoneFixture(t, engine, "+15005550006")
			session := f.signIn()
			r := f.do("POST", "/auth/v1/factors", `{"factor_type":"phone","friendly_name":"Mobile","phone":"+44 7700 900456"}`, bearer(session)...)
			if r.status != 200 || r.body["type"] != "phone" || r.body["phone"] != "447700900456" || r.body["friendly_name"] != "Mobile" {
				t.Fatalf("enroll = %d %s", r.status, r.raw)
			}
			factorID := r.body["id"].(string)
			if n := len(peer.take(f)); n != 0 {
				t.Errorf("enrolment sent %d messages", n)
			}
			ch := f.do("POST", "/auth/v1/factors/"+factorID+"/challenge", `{"channel":"sms"}`, bearer(session)...)
			if ch.status != 200 || ch.body["type"] != "phone" {
				t.Fatalf("challenge = %d %s", ch.status, ch.raw)
			}
			msgs := peer.take(f)
			if len(msgs) != 1 || msgs[0].form.Get("To") != "+447700900456" {
				t.Fatalf("messages = %v", msgs)
			}
			code := codeInSMS.FindString(msgs[0].form.Get("Body"))
			if again := f.do("POST", "/auth/v1/factors/"+factorID+"/challenge", `{}`, bearer(session)...); again.status != 429 || again.body["error_code"] != "over_sms_send_rate_limit" {
				t.Errorf("a second challenge at once = %d %s", again.status, again.raw)
			}
			wrong := "000000"
			if code == wrong {
				wrong = "111111"
			}
			verify := func(code string) response {
				return f.do("POST", "/auth/v1/factors/"+factorID+"/verify", `{"challenge_id":"`+ch.body["id"].(string)+`","code":"`+code+`"}`, bearer(session)...)
			}
			if w := verify(wrong); w.status != 422 || w.body["error_code"] != "mfa_verification_failed" || !strings.Contains(w.raw, "Invalid MFA Phone code entered") {
				t.Errorf("a wrong code = %d %s", w.status, w.raw)
			}
			v := verify(code)
			if v.status != 200 {
				t.Fatalf("verify = %d %s", v.status, v.raw)
			}
			claims := f.claims(v.body["access_token"].(string))
			if amr := claims["amr"].([]any); claims["aal"] != "aal2" || amr[0].(map[string]any)["method"] != "mfa/phone" {
				t.Errorf("claims = %v", claims)
			}
			factors := v.body["user"].(map[string]any)["factors"].([]any)
			if len(factors) != 1 || factors[0].(map[string]any)["status"] != "verified" || factors[0].(map[string]any)["phone"] != "447700900456" {
				t.Errorf("factors = %v", factors)
			}
			if again := verify(code); again.status != 422 {
				t.Errorf("the code again = %d %s", again.status, again.raw)
			}
			dup := f.do("POST", "/auth/v1/factors", `{"factor_type":"phone","friendly_name":"Again","phone":"+447700900456"}`, bearer(v.body)...)
			if dup.status != 422 || dup.body["error_code"] != "mfa_verified_factor_exists" {
				t.Errorf("the number again = %d %s", dup.status, dup.raw)
			}
		})
	}
}

// TestPhoneFactorOff: with SMS off, a phone factor is GoTrue's
// mfa_phone_enroll_not_enabled.
func TestPhoneFactorOff(t *testing.T) {
	f := newFixture(t, sqlite())
	session := f.signIn()
	r := f.do("POST", "/auth/v1/factors", `{"factor_type":"phone","phone":"+447700900456"}`, bearer(session)...)
	if r.status != 422 || r.body["error_code"] != "mfa_phone_enroll_not_enabled" {
		t.Errorf("enroll = %d %s", r.status, r.raw)
	}
}

// claims are the verified claims of an access token of the service.
func (f *fixture) claims(token string) map[string]any {
	f.t.Helper()
	return verifyWithJWKS(f.t.(*testing.T), token, f.do("GET", "/auth/v1/.well-known/jwks.json", "").raw)
}
