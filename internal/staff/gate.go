package staff

import (
	"context"
	"net/http"
	"regexp"
	"time"

	"studio/internal/fault"
)

// Member is the signed-in member of staff an access token speaks for, as
// the protocols that take a token (rest/v1, realtime/v1, storage/v1) see
// them.
type Member struct {
	UserID    string
	Email     string
	SessionID string
	AAL       string // AAL1 or AAL2
	ExpiresAt time.Time
}

// Gate is the one check of a staff access token (auth.Service is it): signed
// by one of the keys and not expired, its session and user still there (a
// signed-out token stops working at once), and the session at the assurance
// level the user needs. The protocols depend on this, not on auth.
type Gate interface {
	// Authorize returns the member of staff token speaks for, or an error
	// of a fault kind: Unauthenticated for a token that does not verify or
	// whose session ended (ErrSessionEnded), Forbidden for a session that
	// must first reach aal2 (ErrAAL2Required), else the store's failure
	// (Unavailable, with its wait).
	Authorize(ctx context.Context, token string) (Member, error)
}

// The gate's refusals that a protocol tells apart; the others are of kind
// fault.Unauthenticated and say why.
var (
	ErrSessionEnded = fault.New(fault.Unauthenticated, "Session from session_id claim in JWT does not exist")
	ErrAAL2Required = fault.New(fault.Forbidden, "AAL2 session is required: verify your second factor (TOTP) first")
)

// TokenRefused is the gate's refusal of a token that does not verify, saying
// why.
func TokenRefused(why string) error { return fault.New(fault.Unauthenticated, why) }

var bearer = regexp.MustCompile(`^(?i)Bearer\s+(\S+)\s*$`)

// BearerToken is the token of r's "Authorization: Bearer …" header; "" for
// none.
func BearerToken(r *http.Request) string {
	if m := bearer.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
		return m[1]
	}
	return ""
}

// StaffToken is the access token r carries for a member of staff: its
// bearer token, unless that is the public anon key it sends as apikey too
// (supabase-js does when no one is signed in). "" is anonymous.
func StaffToken(r *http.Request) string {
	token := BearerToken(r)
	if token == r.Header.Get("apikey") {
		return ""
	}
	return token
}
