package auth

import (
	"slices"
	"studio/internal/staff"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Audience is the aud claim and the role of signed-in users.
const Audience = "authenticated"

// AccessClaims are the claims of an access token, GoTrue's.
type AccessClaims struct {
	Issuer       string           `json:"iss"`
	Subject      string           `json:"sub"` // the user's id
	Aud          string           `json:"aud"`
	ExpiresAt    int64            `json:"exp"`
	IssuedAt     int64            `json:"iat"`
	Email        string           `json:"email"`
	Phone        string           `json:"phone"`
	AppMetadata  map[string]any   `json:"app_metadata"`
	UserMetadata map[string]any   `json:"user_metadata"`
	Role         string           `json:"role"`
	AAL          string           `json:"aal"`
	AMR          []staff.AMREntry `json:"amr"`
	SessionID    string           `json:"session_id"`
	IsAnonymous  bool             `json:"is_anonymous"`
}

func newAccessClaims(issuer string, u staff.User, s staff.Session, now time.Time, expiry time.Duration) AccessClaims {
	return AccessClaims{
		Issuer: issuer, Subject: u.ID, Aud: Audience,
		ExpiresAt: now.Add(expiry).Unix(), IssuedAt: now.Unix(),
		Email: u.Email, Phone: u.Phone, AppMetadata: appMetadata(u), UserMetadata: u.UserMetadata,
		Role: Audience, AAL: s.AAL, AMR: s.AMR, SessionID: s.ID,
	}
}

func appMetadata(u staff.User) map[string]any {
	providers := []string{"email"}
	for _, id := range u.Identities {
		if !slices.Contains(providers, id.Provider) {
			providers = append(providers, id.Provider)
		}
	}
	return map[string]any{"provider": "email", "providers": providers}
}

// The jwt.Claims methods, for the parser's checks.

func (c AccessClaims) GetExpirationTime() (*jwt.NumericDate, error) {
	if c.ExpiresAt == 0 {
		return nil, nil
	}
	return jwt.NewNumericDate(time.Unix(c.ExpiresAt, 0)), nil
}

func (c AccessClaims) GetIssuedAt() (*jwt.NumericDate, error) {
	return jwt.NewNumericDate(time.Unix(c.IssuedAt, 0)), nil
}

func (c AccessClaims) GetNotBefore() (*jwt.NumericDate, error) { return nil, nil }
func (c AccessClaims) GetIssuer() (string, error)              { return c.Issuer, nil }
func (c AccessClaims) GetSubject() (string, error)             { return c.Subject, nil }
func (c AccessClaims) GetAudience() (jwt.ClaimStrings, error) {
	return jwt.ClaimStrings{c.Aud}, nil
}
