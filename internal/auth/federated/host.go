package federated

import (
	"net/http"
	"net/url"

	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// Host is what the handlers use of the /auth/v1 service that mounts them
// (package auth): its rate limits, CAPTCHA, sessions, audit entries,
// counters and redirect allow list, which its other sign-ins share.
type Host interface {
	// Allow takes one request of r's client from limit, or answers 429 and
	// returns false.
	Allow(w http.ResponseWriter, r *http.Request, limit Limit) bool
	// CheckCaptcha checks the request's CAPTCHA token when one is needed,
	// or answers why not and returns false.
	CheckCaptcha(w http.ResponseWriter, r *http.Request, token string) bool
	// LinkingUser returns the signed-in person of r's access token, who may
	// link an identity (their session at the assurance level they need),
	// or answers why not and returns false.
	LinkingUser(w http.ResponseWriter, r *http.Request) (staff.User, bool)
	// NewSession starts a session of u, signed in by method, and returns
	// its tokens; audit is the base of the sign-in's audit entry.
	NewSession(r *http.Request, u staff.User, method string, audit staff.AuditEntry) (Tokens, *gotrue.Error)
	// StartSession is NewSession that answers the session as GoTrue does.
	StartSession(w http.ResponseWriter, r *http.Request, u staff.User, method string, audit staff.AuditEntry)
	// Audit is the base of an audit entry of action by r's client.
	Audit(r *http.Request, action string) staff.AuditEntry
	// CountSignIn counts the result of an attempt to sign in ("ok" or an
	// error code).
	CountSignIn(result string)
	// Redirect is where the browser goes after a sign-in that asked for
	// redirectTo: it when allowed, else the console.
	Redirect(redirectTo string) url.URL
}

// Limit names the per-client rate limit of the service a request counts
// against.
type Limit int

const (
	LimitStart  Limit = iota // GET /authorize and the linking of an identity, as POST /otp
	LimitVerify              // the id_token grant, as POST /verify
	LimitSSO                 // POST /sso and the SAML ACS
)

// Tokens are a new session's tokens, as the redirect of an implicit flow
// carries them.
type Tokens struct {
	AccessToken  string
	TokenType    string
	ExpiresIn    int // seconds
	ExpiresAt    int64
	RefreshToken string
}
