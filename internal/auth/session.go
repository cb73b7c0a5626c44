package auth

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// userJSON is a user as GoTrue shows one.
type userJSON struct {
	ID               string         `json:"id"`
	Aud              string         `json:"aud"`
	Role             string         `json:"role"`
	Email            string         `json:"email"`
	EmailConfirmedAt *time.Time     `json:"email_confirmed_at"`
	Phone            string         `json:"phone"`
	LastSignInAt     *time.Time     `json:"last_sign_in_at"`
	AppMetadata      map[string]any `json:"app_metadata"`
	UserMetadata     map[string]any `json:"user_metadata"`
	Identities       []identityJSON `json:"identities"`
	CreatedAt        time.Time      `json:"created_at"`
	UpdatedAt        time.Time      `json:"updated_at"`
	IsAnonymous      bool           `json:"is_anonymous"`
	Factors          []factorJSON   `json:"factors,omitempty"`
}

// identityJSON is one of the user's identities: the e-mail address, or a
// provider's account.
type identityJSON struct {
	IdentityID   string         `json:"identity_id"`
	ID           string         `json:"id"`
	UserID       string         `json:"user_id"`
	IdentityData map[string]any `json:"identity_data"`
	Provider     string         `json:"provider"`
	LastSignInAt *time.Time     `json:"last_sign_in_at"`
	CreatedAt    time.Time      `json:"created_at"`
	UpdatedAt    time.Time      `json:"updated_at"`
	Email        string         `json:"email"`
}

// identityNamespace makes the e-mail identity's id from the user's.
var identityNamespace = uuid.MustParse("5b0c51f5-8d35-4d3a-9a53-2f0b7d0e7c1e")

func toUserJSON(u staff.User) userJSON {
	identities := []identityJSON{emailIdentity(u)}
	for _, id := range u.Identities {
		identities = append(identities, identityJSON{IdentityID: id.ID, ID: id.Subject, UserID: id.UserID, IdentityData: id.Data,
			Provider: id.Provider, LastSignInAt: id.LastSignInAt, CreatedAt: id.CreatedAt, UpdatedAt: id.UpdatedAt, Email: id.Email})
	}
	return userJSON{
		ID: u.ID, Aud: Audience, Role: Audience, Email: u.Email, EmailConfirmedAt: u.EmailConfirmedAt, Phone: u.Phone,
		LastSignInAt: u.LastSignInAt, AppMetadata: appMetadata(u), UserMetadata: u.UserMetadata,
		Identities: identities,
		CreatedAt:  u.CreatedAt, UpdatedAt: u.UpdatedAt, Factors: toFactorsJSON(u.Factors),
	}
}

// emailIdentity is the identity every member of staff has: their address,
// by which they may always ask for a code.
func emailIdentity(u staff.User) identityJSON {
	return identityJSON{
		IdentityID: emailIdentityID(u.ID), ID: u.ID, UserID: u.ID,
		IdentityData: map[string]any{"email": u.Email, "email_verified": true, "phone_verified": false, "sub": u.ID},
		Provider:     "email", LastSignInAt: u.LastSignInAt, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt, Email: u.Email,
	}
}

// emailIdentityID is the identity_id of the user's e-mail identity.
func emailIdentityID(userID string) string {
	return uuid.NewSHA1(identityNamespace, []byte(userID)).String()
}

// sessionJSON is the answer of a sign-in or refresh.
type sessionJSON struct {
	AccessToken  string   `json:"access_token"`
	TokenType    string   `json:"token_type"`
	ExpiresIn    int      `json:"expires_in"`
	ExpiresAt    int64    `json:"expires_at"`
	RefreshToken string   `json:"refresh_token"`
	User         userJSON `json:"user"`
}

// sessionAnswer signs an access token of s for u and answers it with the
// refresh token.
func (s *Service) sessionAnswer(ctx context.Context, u staff.User, sess staff.Session, refreshToken string, now time.Time) (sessionJSON, error) {
	keys, err := s.signingKeys(ctx, false)
	if err != nil {
		return sessionJSON{}, err
	}
	claims := newAccessClaims(s.issuer, u, sess, now, s.cfg.JWTExpiry)
	token, err := keys.sign(claims)
	if err != nil {
		return sessionJSON{}, err
	}
	return sessionJSON{AccessToken: token, TokenType: "bearer", ExpiresIn: int(s.cfg.JWTExpiry / time.Second),
		ExpiresAt: claims.ExpiresAt, RefreshToken: refreshToken, User: toUserJSON(u)}, nil
}

// caller is who made a request with an access token.
type caller struct {
	claims  AccessClaims
	session staff.Session
	user    staff.User
}

// authenticate checks the request's access token: signed by one of the
// keys, not expired, and its session still exists, so a token stops
// working the moment its session ends. Otherwise it answers and returns
// false.
func (s *Service) authenticate(w http.ResponseWriter, r *http.Request) (caller, bool) {
	var c caller
	token := staff.BearerToken(r)
	if token == "" {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnauthorized, gotrue.CodeNoAuthorization, "This endpoint requires a valid Bearer token"))
		return c, false
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	c, e := s.checkToken(ctx, token)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return c, false
	}
	return c, true
}

// parseAccessToken verifies token and returns its claims, or the 403
// bad_jwt (400 for a sub that is not a UUID) GoTrue answers.
func (s *Service) parseAccessToken(ctx context.Context, token string) (AccessClaims, *gotrue.Error) {
	if claims, ok := s.verified.get(token, s.cfg.Now()); ok {
		return claims, nil
	}
	var claims AccessClaims
	keys, err := s.signingKeys(ctx, false)
	if err != nil {
		return claims, s.storeFailure("load signing keys", err)
	}
	p := jwt.NewParser(jwt.WithValidMethods([]string{AlgES256}), jwt.WithExpirationRequired(),
		jwt.WithAudience(Audience), jwt.WithIssuer(s.issuer), jwt.WithTimeFunc(s.cfg.Now))
	_, err = p.ParseWithClaims(token, &claims, keys.keyFor)
	if err != nil && errors.Is(err, jwt.ErrTokenUnverifiable) {
		// Perhaps a key another server made: read the keys again.
		if keys, kerr := s.signingKeys(ctx, true); kerr == nil {
			claims = AccessClaims{}
			_, err = p.ParseWithClaims(token, &claims, keys.keyFor)
		}
	}
	switch {
	case err != nil:
		return claims, gotrue.NewError(http.StatusForbidden, gotrue.CodeBadJWT, "invalid JWT: unable to parse or verify signature, %v", err)
	case claims.Subject == "":
		return claims, gotrue.NewError(http.StatusForbidden, gotrue.CodeBadJWT, "invalid claim: missing sub claim")
	case uuid.Validate(claims.Subject) != nil:
		return claims, gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadJWT, "invalid claim: sub claim must be a UUID")
	case uuid.Validate(claims.SessionID) != nil:
		return claims, gotrue.NewError(http.StatusForbidden, gotrue.CodeBadJWT, "invalid claim: session_id claim must be a UUID")
	}
	s.verified.put(token, claims, s.cfg.Now())
	return claims, nil
}

// handleUserGet handles GET /auth/v1/user: the signed-in user, with their
// factors and identities, all read with the session (checkToken).
func (s *Service) handleUserGet(w http.ResponseWriter, r *http.Request) {
	c, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	api.WriteJSON(w, http.StatusOK, toUserJSON(c.user))
}

// handleLogout handles POST /auth/v1/logout?scope=global|local|others: ends
// the caller's sessions of the scope (global by default) and answers 204.
func (s *Service) handleLogout(w http.ResponseWriter, r *http.Request) {
	c, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	scope := staff.LogoutScope(r.URL.Query().Get("scope"))
	switch scope {
	case "":
		scope = staff.ScopeGlobal
	case staff.ScopeGlobal, staff.ScopeLocal, staff.ScopeOthers:
	default:
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Unsupported logout scope %q", string(scope)))
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	audit := s.audit(r, staff.ActionLogout)
	audit.Email, audit.UserID, audit.SessionID, audit.Detail = c.user.Email, c.user.ID, c.session.ID, "scope "+string(scope)
	if err := s.store.EndSessions(ctx, c.user.ID, c.session.ID, scope, audit); err != nil {
		s.failed(w, r, "end sessions", err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}
