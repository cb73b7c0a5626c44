package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/notify"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// callRecorder is the store of the auth service, writing down which of its
// methods that a request could use to tell staff from others are called
// while recording is on.
type callRecorder struct {
	staff.Store
	mu        sync.Mutex
	recording bool
	calls     []string
}

func (c *callRecorder) record(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.recording {
		c.calls = append(c.calls, name)
	}
}

// start begins a new record; stop ends it and returns it.
func (c *callRecorder) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recording, c.calls = true, nil
}

func (c *callRecorder) stop() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recording = false
	return c.calls
}

func (c *callRecorder) FindUserByEmail(ctx context.Context, email string) (staff.User, error) {
	c.record("FindUserByEmail")
	return c.Store.FindUserByEmail(ctx, email)
}

func (c *callRecorder) FindUserByID(ctx context.Context, id string) (staff.User, error) {
	c.record("FindUserByID")
	return c.Store.FindUserByID(ctx, id)
}

func (c *callRecorder) ClaimEmailSend(ctx context.Context, addressHash string, now time.Time, interval time.Duration,
	code *staff.Code, mail *notify.Email, audit staff.AuditEntry) (time.Duration, error) {
	c.record(fmt.Sprintf("ClaimEmailSend(code: %t, mail: %t)", code != nil, mail != nil))
	return c.Store.ClaimEmailSend(ctx, addressHash, now, interval, code, mail, audit)
}

func (c *callRecorder) CreateCode(ctx context.Context, code staff.Code, audit staff.AuditEntry) error {
	c.record("CreateCode")
	return c.Store.CreateCode(ctx, code, audit)
}

func (c *callRecorder) QueueCode(ctx context.Context, code staff.Code, mail *notify.Email, audit staff.AuditEntry) error {
	c.record("QueueCode")
	return c.Store.QueueCode(ctx, code, mail, audit)
}

func (c *callRecorder) ConsumeCode(ctx context.Context, userID, purpose, codeHash string, now time.Time, maxTries int, failure staff.AuditEntry) error {
	c.record("ConsumeCode")
	return c.Store.ConsumeCode(ctx, userID, purpose, codeHash, now, maxTries, failure)
}

func (c *callRecorder) ConsumeCodeByEmail(ctx context.Context, email, purpose string, now time.Time, maxTries int,
	match func(userID, codeHash string) bool, failure staff.CodeFailure, start *staff.SignIn) (staff.User, error) {
	c.record("ConsumeCodeByEmail")
	return c.Store.ConsumeCodeByEmail(ctx, email, purpose, now, maxTries, match, failure, start)
}

func (c *callRecorder) ConsumeEmailChange(ctx context.Context, email string, now time.Time, maxTries int,
	match func(userID, codeHash string) bool, failure staff.CodeFailure, start *staff.SignIn) (staff.User, error) {
	c.record("ConsumeEmailChange")
	return c.Store.ConsumeEmailChange(ctx, email, now, maxTries, match, failure, start)
}

func (c *callRecorder) ConsumeLink(ctx context.Context, linkHash, purpose string, now time.Time, maxTries int, failure staff.AuditEntry,
	start *staff.SignIn) (staff.User, error) {
	c.record("ConsumeLink")
	return c.Store.ConsumeLink(ctx, linkHash, purpose, now, maxTries, failure, start)
}

// answerWriter stops the record at the first byte of the answer: what the
// store does after it cannot show in the answer's time.
type answerWriter struct {
	http.ResponseWriter
	onAnswer func()
	answered bool
}

func (w *answerWriter) WriteHeader(status int) {
	if !w.answered {
		w.answered = true
		w.onAnswer()
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *answerWriter) Write(b []byte) (int, error) {
	if !w.answered {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// TestNoEnumerationByWork: /otp, /recover, /resend and /verify (a wrong
// code, while the member of staff has a live one) do the same work before
// they answer for a member of staff and for an address that is not
// staff's: the same store calls, in the same order, and the same answer;
// the lookup of the address and the mail come after the answer. A refused
// code is answered no sooner than FailedCodeFloor. Wrong codes count
// against an address that is not staff's as against a member of staff's:
// both lock out at the same try, with the same 429 and Retry-After (the
// store runs the same statements for both: code_failures.go). (Their
// times, measured: make bench-auth.)
func TestNoEnumerationByWork(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newFixture(t, engine)
			const floor = 30 * time.Millisecond
			rec := &callRecorder{Store: f.db}
			svc := auth.New(rec, auth.Config{SiteOrigin: origin, MailFrom: "Studio <site@studio.test>", Now: f.clock.Now,
				MFAKey: f.secrets, FailedCodeFloor: floor})
			ctx := context.Background()
			stranger := "stranger@studio.test"
			type answer struct {
				calls  []string
				status int
				body   string
				retry  string
				took   time.Duration
			}
			ask := func(path, body string) answer {
				r := httptest.NewRequest("POST", path, strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				var calls []string
				rec.start()
				start := time.Now()
				svc.ServeHTTP(&answerWriter{ResponseWriter: w, onAnswer: func() { calls = rec.stop() }}, r)
				took := time.Since(start)
				svc.Wait()
				return answer{calls, w.Code, w.Body.String(), w.Header().Get("Retry-After"), took}
			}
			liveCode := func(t *testing.T) {
				t.Helper()
				_, _, live, err := staff.NewCode(f.ada.ID, staff.PurposeSignIn, f.clock.Now(), time.Hour)
				if err == nil {
					err = f.db.CreateCode(ctx, live, staff.AuditEntry{})
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			kinds := []struct {
				name, path, body string
				status           int
				refused          bool
			}{
				{"otp", "/auth/v1/otp", `{"email":%q}`, 200, false},
				{"recover", "/auth/v1/recover", `{"email":%q}`, 200, false},
				{"resend", "/auth/v1/resend", `{"type":"signup","email":%q}`, 200, false},
				{"verify", "/auth/v1/verify", `{"type":"email","email":%q,"token":"wrong!"}`, 403, true},
			}
			for _, k := range kinds {
				t.Run(k.name, func(t *testing.T) {
					f.clock.Advance(auth.EmailInterval) // past the per-address limit of the last kind
					liveCode(t)
					ofStaff, other := ask(k.path, fmt.Sprintf(k.body, adaEmail)), ask(k.path, fmt.Sprintf(k.body, stranger))
					if ofStaff.status != k.status || other.status != k.status || ofStaff.body != other.body {
						t.Errorf("answers: staff %d %s, not staff %d %s (want both %d, alike)",
							ofStaff.status, ofStaff.body, other.status, other.body, k.status)
					}
					if len(ofStaff.calls) == 0 || !slices.Equal(ofStaff.calls, other.calls) {
						t.Errorf("store calls before the answer: staff %q, not staff %q (want the same)", ofStaff.calls, other.calls)
					}
					if k.refused && (ofStaff.took < floor || other.took < floor) {
						t.Errorf("refused codes answered after %v and %v, sooner than the floor %v", ofStaff.took, other.took, floor)
					}
				})
			}
			t.Run("verify until locked out", func(t *testing.T) {
				f.clock.Advance(staff.FailureWindow) // a new window for both
				const verify = `{"type":"email","email":%q,"token":"wrong!"}`
				for i := range staff.MaxFailures + 1 {
					liveCode(t)
					ofStaff := ask("/auth/v1/verify", fmt.Sprintf(verify, adaEmail))
					other := ask("/auth/v1/verify", fmt.Sprintf(verify, stranger))
					want := 403
					if i == staff.MaxFailures {
						want = 429
					}
					if ofStaff.status != want || other.status != want || ofStaff.body != other.body || ofStaff.retry != other.retry {
						t.Fatalf("wrong code %d: staff %d %s Retry-After %q, not staff %d %s Retry-After %q (want both %d, alike)",
							i+1, ofStaff.status, ofStaff.body, ofStaff.retry, other.status, other.body, other.retry, want)
					}
					if !slices.Equal(ofStaff.calls, other.calls) {
						t.Errorf("wrong code %d: store calls before the answer: staff %q, not staff %q (want the same)", i+1, ofStaff.calls, other.calls)
					}
					if ofStaff.took < floor || other.took < floor {
						t.Errorf("wrong code %d answered after %v and %v, sooner than the floor %v", i+1, ofStaff.took, other.took, floor)
					}
				}
			})
		})
	}
}

// heldLookups is a store whose address lookups wait until released,
// counting how many wait at once.
type heldLookups struct {
	staff.Store
	release chan struct{}
	mu      sync.Mutex
	waiting int
	most    int
}

func (h *heldLookups) FindUserByEmail(ctx context.Context, email string) (staff.User, error) {
	h.mu.Lock()
	h.waiting++
	h.most = max(h.most, h.waiting)
	h.mu.Unlock()
	<-h.release
	h.mu.Lock()
	h.waiting--
	h.mu.Unlock()
	return h.Store.FindUserByEmail(ctx, email)
}

func (h *heldLookups) counts() (waiting, most int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.waiting, h.most
}

// TestWorkAfterTheAnswerIsBounded: no more than MaxBackground requests'
// work after the answer runs at once; one more request waits for a slot
// before it answers, and goes on when one is free.
func TestWorkAfterTheAnswerIsBounded(t *testing.T) {
	f := newFixture(t, sqlite())
	held := &heldLookups{Store: f.db, release: make(chan struct{})}
	svc := auth.New(held, auth.Config{SiteOrigin: origin, MailFrom: "Studio <site@studio.test>", Now: f.clock.Now, MFAKey: f.secrets})
	answered := make(chan int, auth.MaxBackground+1)
	for i := range auth.MaxBackground + 1 {
		go func() {
			r := httptest.NewRequest("POST", "/auth/v1/otp", strings.NewReader(fmt.Sprintf(`{"email":"someone%d@studio.test"}`, i)))
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			svc.ServeHTTP(w, r)
			answered <- w.Code
		}()
	}
	for range auth.MaxBackground {
		if code := <-answered; code != 200 {
			t.Fatalf("answer %d", code)
		}
	}
	for waiting, _ := held.counts(); waiting < auth.MaxBackground; waiting, _ = held.counts() {
		time.Sleep(time.Millisecond)
	}
	select {
	case <-answered:
		t.Fatalf("%d requests answered while %d slots were busy", auth.MaxBackground+1, auth.MaxBackground)
	case <-time.After(100 * time.Millisecond):
	}
	close(held.release)
	if code := <-answered; code != 200 {
		t.Fatalf("last answer %d", code)
	}
	svc.Wait()
	if _, most := held.counts(); most != auth.MaxBackground {
		t.Errorf("at most %d lookups at once, want %d", most, auth.MaxBackground)
	}
}
