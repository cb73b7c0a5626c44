package auth

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// verifyParams is the body of POST /verify.
type verifyParams struct {
	Type      string `json:"type"`
	Email     string `json:"email"`
	Phone     string `json:"phone"`
	Token     string `json:"token"`
	TokenHash string `json:"token_hash"`
	gotrue.CaptchaParams
}

// verifyTypes are the types /verify takes, and the purpose of the codes
// each accepts.
var verifyTypes = map[string]string{
	"email":        staff.PurposeSignIn,
	"magiclink":    staff.PurposeSignIn,
	"recovery":     staff.PurposeRecovery,
	"email_change": staff.PurposeEmailChange,
}

// maxTokenLength bounds a typed code or a link's token_hash; longer ones are
// wrong without hashing them. A link's longer token_hash is refused before
// any try, so, like other malformed requests, it is not in the audit log.
const maxTokenLength = 128

// handleVerify handles POST /auth/v1/verify: {email, token, type} or
// {token_hash, type} signs in with a mailed code or link and answers the
// session. A wrong, expired or used code (or an address that is not
// staff) is 403 otp_expired; every try counts, and the fifth kills the
// code. MaxFailures wrong codes typed for one person lock their codes
// out (codelock.go): 429 over_request_rate_limit. The link of a code asked for with PKCE is 400
// flow_state_not_found: only its verifier redeems it (pkce.go). A phone's
// code is handleVerifyPhone's.
func (s *Service) handleVerify(w http.ResponseWriter, r *http.Request) {
	var p verifyParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	if p.Phone != "" || p.Type == "sms" || p.Type == "phone_change" {
		s.handleVerifyPhone(w, r, p)
		return
	}
	purpose, known := verifyTypes[p.Type]
	switch {
	case p.Type == "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Verify requires a verification type"))
		return
	case !known:
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Unsupported verification type"))
		return
	case p.Token == "" && p.TokenHash == "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Verify requires either a token or a token hash"))
		return
	case p.Token != "" && p.TokenHash != "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Verify requires either a token or a token hash, not both"))
		return
	case p.TokenHash != "" && p.Email != "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Only the token_hash and type should be provided"))
		return
	case p.Token != "" && p.Email == "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Verify requires an email address with the token"))
		return
	}
	if !s.allow(w, r, s.limitVerify) || !s.checkCaptcha(w, r, p.Security.CaptchaToken) {
		return
	}
	started := time.Now()
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	now := s.cfg.Now()
	// The entry of a failed try (the store logs it: FailedTry), and the
	// base of the sign-in's.
	audit := s.audit(r, staff.ActionLoginFailed)

	method := p.Type
	if p.Token != "" {
		method = "otp"
	}
	start, refresh, err := s.newSignIn(method, audit)
	if err != nil {
		s.failed(w, r, "new refresh token", err)
		return
	}
	// The code is used, and the session started, in one transaction.
	var u staff.User
	if p.Token != "" {
		email, e := normalizeEmail(p.Email)
		if e != nil {
			gotrue.WriteError(w, r, e)
			return
		}
		audit.Email = email
		if purpose == staff.PurposeEmailChange {
			u, err = s.store.ConsumeEmailChange(ctx, email, now, staff.MaxCodeTries, codeMatches(p.Token), s.codeFailure(audit), &start)
		} else {
			u, err = s.store.ConsumeCodeByEmail(ctx, email, purpose, now, staff.MaxCodeTries, codeMatches(p.Token), s.codeFailure(audit), &start)
		}
		if errors.Is(err, staff.ErrExists) {
			gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeEmailExists, "A user with this email address has already been registered"))
			return
		}
	} else {
		err = staff.ErrCodeInvalid
		if len(p.TokenHash) <= maxTokenLength {
			u, err = s.store.ConsumeLink(ctx, staff.LinkHash(p.TokenHash), purpose, now, staff.MaxCodeTries, audit, &start)
		}
	}
	msg := "Email link is invalid or has expired"
	if p.Token != "" {
		msg = "Token has expired or is invalid"
		if err != nil {
			s.waitFloor(r, started)
		}
	}
	if s.verifyFailed(w, r, err, msg) {
		return
	}
	s.answerSignIn(w, r, u, start, refresh)
}

// newSignIn is the session a sign-in by method starts, for the store to
// start (staff.SignIn), and its refresh token; audit is the base of the
// sign-in's audit entry.
func (s *Service) newSignIn(method string, audit staff.AuditEntry) (staff.SignIn, string, error) {
	refresh, err := staff.NewRefreshToken()
	if err != nil {
		return staff.SignIn{}, "", err
	}
	now := s.cfg.Now()
	sess := staff.Session{ID: uuid.NewString(), CreatedAt: now, RefreshedAt: now, AAL: staff.AAL1,
		AMR: []staff.AMREntry{{Method: method, Timestamp: now.Unix()}}}
	audit.Action, audit.SessionID, audit.Detail = staff.ActionLogin, sess.ID, method
	return staff.SignIn{Session: sess, RefreshHash: staff.RefreshHash(refresh), Audit: audit}, refresh, nil
}

// answerSignIn answers the session start that the store started for u,
// whose refresh token is refresh.
func (s *Service) answerSignIn(w http.ResponseWriter, r *http.Request, u staff.User, start staff.SignIn, refresh string) {
	answer, e := s.signedIn(r, u, start, refresh)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	api.WriteJSON(w, http.StatusOK, answer)
}

// signedIn counts a sign-in and returns its answer: the session start
// that the store started for u, with its tokens.
func (s *Service) signedIn(r *http.Request, u staff.User, start staff.SignIn, refresh string) (sessionJSON, *gotrue.Error) {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	s.countSignIn("ok")
	sess := start.Session
	sess.UserID = u.ID
	answer, err := s.sessionAnswer(ctx, u, sess, refresh, sess.CreatedAt)
	if err != nil {
		return sessionJSON{}, s.storeFailure("sign access token", err)
	}
	return answer, nil
}

// startSession starts a session of u, signed in by method, and answers it;
// audit is the sign-in's audit entry.
func (s *Service) startSession(w http.ResponseWriter, r *http.Request, u staff.User, method string, audit staff.AuditEntry) {
	answer, e := s.newSession(r, u, method, audit)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	api.WriteJSON(w, http.StatusOK, answer)
}

// newSession starts a session of u, signed in by method (a sign-in with no
// code to use in the same transaction: a federated one, a PKCE exchange),
// and returns its answer; audit is the base of the sign-in's audit entry.
func (s *Service) newSession(r *http.Request, u staff.User, method string, audit staff.AuditEntry) (sessionJSON, *gotrue.Error) {
	start, refresh, err := s.newSignIn(method, audit)
	if err != nil {
		return sessionJSON{}, s.storeFailure("new refresh token", err)
	}
	start.Session.UserID = u.ID
	start.Audit.Email, start.Audit.UserID = u.Email, u.ID
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	if err := s.store.StartSession(ctx, start.Session, start.RefreshHash, start.Audit); err != nil {
		return sessionJSON{}, s.storeFailure("start session", err)
	}
	now := start.Session.CreatedAt
	u.LastSignInAt, u.UpdatedAt = &now, now
	if u.EmailConfirmedAt == nil {
		u.EmailConfirmedAt = &now
	}
	return s.signedIn(r, u, start, refresh)
}

// verifyFailed answers a failed verification, 403 otp_expired with msg
// (400 flow_state_not_found for a PKCE link, 429 while the person's codes
// are locked out); it returns false when err is nil. The store logged the
// failed try.
func (s *Service) verifyFailed(w http.ResponseWriter, r *http.Request, err error, msg string) bool {
	var locked *staff.CodesLockedError
	switch {
	case err == nil:
		return false
	case errors.As(err, &locked):
		s.answerCodesLocked(w, r, locked)
	case errors.Is(err, staff.ErrCodeInvalid):
		s.countSignIn(gotrue.CodeOTPExpired)
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusForbidden, gotrue.CodeOTPExpired, "%s", msg))
	case errors.Is(err, staff.ErrPKCERequired):
		// GoTrue's answer when /verify meets a PKCE flow it cannot
		// complete; the code stays for its verifier.
		s.countSignIn(gotrue.CodeFlowStateNotFound)
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeFlowStateNotFound,
			"No associated flow state found. This link was asked for with PKCE: exchange its code with the code verifier (grant_type=pkce)"))
	default:
		s.failed(w, r, "verify", err)
	}
	return true
}

// waitFloor waits until FailedCodeFloor has passed since started, or the
// client has gone.
func (s *Service) waitFloor(r *http.Request, started time.Time) {
	t := time.NewTimer(time.Until(started.Add(s.cfg.FailedCodeFloor)))
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
	}
}

// codeMatches checks a typed code against the stored hash of a user's
// code, in constant time; a code too long to be one never matches.
func codeMatches(token string) func(userID, stored string) bool {
	return func(userID, stored string) bool {
		return len(token) <= maxTokenLength && subtle.ConstantTimeCompare([]byte(staff.CodeHash(userID, token)), []byte(stored)) == 1
	}
}
