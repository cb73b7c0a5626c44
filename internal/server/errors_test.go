package server_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"studio/internal/analytics"
	"studio/internal/auth"
	"studio/internal/contact"
	"studio/internal/fault"
	"studio/internal/form"
	"studio/internal/notify"
	"studio/internal/query"
	"studio/internal/rest"
	"studio/internal/server"
	"studio/internal/signup"
	"studio/internal/staff"
	"studio/internal/store"
)

// internals is the text of every error the failing stores return: no
// answer may carry it.
const internals = "SQLSTATE 99999 at /var/lib/studio"

// failingStores fail every call with err, for each protocol's store: the
// functions' (contact, signup), the console's data (rest) and staff
// sign-in's (auth: the signing keys every request needs first).
type failingStores struct {
	staff.Store // nil: only EnsureSigningKey is called
	err         error
}

func (s failingStores) CreateContactMessage(context.Context, contact.Message, *notify.Email) (contact.Message, error) {
	return contact.Message{}, s.err
}
func (s failingStores) JoinWaitlist(context.Context, signup.WaitlistEntry) (bool, error) {
	return false, s.err
}
func (s failingStores) Subscribe(context.Context, signup.Subscriber) (bool, error) {
	return false, s.err
}
func (s failingStores) Select(context.Context, *query.Query) (query.Result, error) {
	return query.Result{}, s.err
}
func (s failingStores) Update(context.Context, *query.Query, []query.Assignment) ([]query.Row, error) {
	return nil, s.err
}
func (s failingStores) AnalyticsSummary(context.Context, analytics.Query) (analytics.Summary, error) {
	return analytics.Summary{}, s.err
}
func (s failingStores) EnsureSigningKey(context.Context, staff.SigningKey) ([]staff.SigningKey, error) {
	return nil, s.err
}

// staffToken lets every token in as a member of staff at aal2.
type staffToken struct{}

func (staffToken) Authorize(context.Context, string) (staff.Member, error) {
	return staff.Member{UserID: "6f1c2f4e-8d1a-4a57-9a0e-5b8f0b1d2c3e", Email: "ada@studio.test", AAL: "aal2"}, nil
}

// TestErrorKinds drives each kind of store failure (package fault) through
// each protocol and checks its answer: status, the whole body (so no answer
// tells the failure's text) and Retry-After (on the 503s of an unavailable
// store, and only there).
func TestErrorKinds(t *testing.T) {
	type answers struct {
		authStatus int
		authCode   string
		authMsg    string
		restStatus int
		restCode   string
		restMsg    string
		fnStatus   int
		fnBody     map[string]any
		problem    string // the native form's problem page
		retryAfter string // of the 503s; "" elsewhere
	}
	internal := answers{authStatus: 500, authCode: "unexpected_failure", authMsg: "Unexpected failure, please try again",
		restStatus: 500, restCode: "XX000", restMsg: "Unexpected failure, please try again",
		fnStatus: 500, fnBody: map[string]any{"error": msgs.Internal}, problem: "internal"}
	tests := []struct {
		kind fault.Kind
		want answers
	}{
		{fault.Unavailable, answers{authStatus: 503, authCode: "request_timeout", authMsg: "The service cannot reach its store, please retry in a moment",
			restStatus: 503, restCode: "PGRST001", restMsg: "Could not reach the database",
			fnStatus: 503, fnBody: map[string]any{"error": msgs.Unavailable}, problem: "unavailable", retryAfter: "2"}},
		{fault.NotFound, func() answers {
			a := internal // a submission names nothing, a query finds no row by reading none
			a.authStatus, a.authCode, a.authMsg = 404, "not_found", "Not found"
			return a
		}()},
		{fault.Conflict, func() answers {
			a := internal // every submission is idempotent
			a.authStatus, a.authCode, a.authMsg = 409, "conflict", "The change conflicts with what is stored"
			a.restStatus, a.restCode, a.restMsg = 409, "23505", "The change conflicts with a stored row"
			return a
		}()},
		{fault.Invalid, answers{authStatus: 400, authCode: "validation_failed", authMsg: "A value was refused",
			restStatus: 400, restCode: "23514", restMsg: "A value breaks a rule of the table",
			fnStatus: 400, fnBody: map[string]any{"error": form.Rules.Problems["invalid"], "fields": map[string]any{}}, problem: "invalid"}},
		{fault.Internal, internal},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			err := fmt.Errorf("insert: %w", errors.New(internals))
			if tt.kind != fault.Internal {
				err = fault.Mark(tt.kind, err)
			}
			st := failingStores{err: err}
			h := server.New(server.Deps{
				Site:    fakeSite,
				Logger:  discardLogger(),
				Contact: &contact.Service{Store: st},
				Signup:  &signup.Service{Store: st},
				Auth:    auth.New(st, auth.Config{SiteOrigin: "http://example.com"}),
				Rest:    rest.New(st, staffToken{}, rest.Config{}),
			})
			w := tt.want
			var hint any
			if w.restStatus == 503 {
				hint = "Try again in a moment"
			}
			retry := map[string]string{"Retry-After": w.retryAfter}
			runScenarios(t, h, []scenario{
				{name: "auth", method: "GET", path: "/auth/v1/.well-known/jwks.json", wantStatus: w.authStatus, wantHeader: retry,
					wantBody: map[string]any{"code": float64(w.authStatus), "error_code": w.authCode, "msg": w.authMsg}},
				{name: "auth token check", method: "GET", path: "/auth/v1/user", headers: map[string]string{"Authorization": "Bearer x"},
					wantStatus: w.authStatus, wantHeader: retry,
					wantBody: map[string]any{"code": float64(w.authStatus), "error_code": w.authCode, "msg": w.authMsg}},
				{name: "rest", method: "GET", path: "/rest/v1/contact_messages?select=id", headers: map[string]string{"Authorization": "Bearer x"},
					wantStatus: w.restStatus, wantHeader: retry,
					wantBody: map[string]any{"code": w.restCode, "details": nil, "hint": hint, "message": w.restMsg}},
				{name: "functions", method: "POST", path: "/functions/v1/submit-contact", body: validContact,
					wantStatus: w.fnStatus, wantHeader: retry, wantBody: w.fnBody},
				{name: "functions sign-up", method: "POST", path: "/functions/v1/join-waitlist", body: `{"email":"a@example.com","productId":"saas-2"}`,
					wantStatus: w.fnStatus, wantHeader: retry, wantBody: w.fnBody},
				formPost("functions native form", "submit-contact", validContactForm, "/forms/problem/"+w.problem),
			})
		})
	}
}

// TestRetryAfterFollowsTheBreaker: the 503s of an unreachable store carry
// the Retry-After of its circuit breaker, in every protocol: 1 s while the
// store just failed, 5 s once the breaker is open (after three failures in
// a row), when calls fail at once.
func TestRetryAfterFollowsTheBreaker(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, store.Config{DatabaseURL: "postgres://studio@127.0.0.1:1/none?connect_timeout=2", Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h := server.New(server.Deps{
		Site:    fakeSite,
		Logger:  discardLogger(),
		Contact: &contact.Service{Store: db},
		Auth:    auth.New(db, auth.Config{SiteOrigin: "http://example.com"}),
		Rest:    rest.New(db, staffToken{}, rest.Config{}),
	})
	functionCall := func(retry string) scenario {
		return scenario{name: "functions, Retry-After " + retry, method: "POST", path: "/functions/v1/submit-contact", body: validContact,
			wantStatus: 503, wantHeader: map[string]string{"Retry-After": retry}}
	}
	authCall := func(retry string) scenario {
		return scenario{name: "auth, Retry-After " + retry, method: "GET", path: "/auth/v1/.well-known/jwks.json",
			wantStatus: 503, wantHeader: map[string]string{"Retry-After": retry}}
	}
	restCall := func(retry string) scenario {
		return scenario{name: "rest, Retry-After " + retry, method: "GET", path: "/rest/v1/contact_messages?select=id",
			headers: map[string]string{"Authorization": "Bearer x"}, wantStatus: 503, wantHeader: map[string]string{"Retry-After": retry}}
	}
	runScenarios(t, h, []scenario{
		functionCall("1"), authCall("1"), // closed: the store just failed
		restCall("5"), // the third failure in a row opens the breaker
		functionCall("5"), authCall("5"), restCall("5"),
	})
	if db.Up() {
		t.Error("the store is up after three failures in a row")
	}
}
