package auth

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/notify"
	"studio/internal/staff"
)

// TOTP MFA under /factors, GoTrue's: enrol a factor (a secret and its QR
// code), challenge it, verify a code against the challenge (the session
// becomes aal2), and unenrol it.

// Limits of MFA, GoTrue's defaults.
const (
	// MaxFactors is how many factors, verified or not, a user may have.
	MaxFactors = 10
	// UnverifiedFactorExpiry is how long an unverified factor that was never
	// challenged is kept: the next enrolment removes older ones.
	UnverifiedFactorExpiry = 5 * time.Minute
	// maxFactorText bounds a friendly name or an issuer.
	maxFactorText = 256
)

// factorJSON is a factor as GoTrue shows one in the user.
type factorJSON struct {
	ID               string     `json:"id"`
	FriendlyName     string     `json:"friendly_name,omitempty"`
	FactorType       string     `json:"factor_type"`
	Status           string     `json:"status"`
	CreatedAt        time.Time  `json:"created_at"`
	UpdatedAt        time.Time  `json:"updated_at"`
	LastChallengedAt *time.Time `json:"last_challenged_at"`
	Phone            string     `json:"phone,omitempty"`
}

func toFactorsJSON(fs []staff.Factor) []factorJSON {
	var out []factorJSON
	for _, f := range fs {
		out = append(out, factorJSON{ID: f.ID, FriendlyName: f.FriendlyName, FactorType: f.FactorType, Status: f.Status,
			CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt, LastChallengedAt: f.LastChallengedAt, Phone: f.Phone})
	}
	return out
}

// enrollParams is the body of POST /factors.
type enrollParams struct {
	FactorType   string `json:"factor_type"`
	FriendlyName string `json:"friendly_name"`
	Issuer       string `json:"issuer"`
	Phone        string `json:"phone"`
}

// enrollAnswer is the answer of POST /factors.
type enrollAnswer struct {
	ID           string `json:"id"`
	Type         string `json:"type"`
	FriendlyName string `json:"friendly_name"`
	TOTP         struct {
		QRCode string `json:"qr_code"`
		Secret string `json:"secret"`
		URI    string `json:"uri"`
	} `json:"totp"`
}

// handleEnroll handles POST /auth/v1/factors: a new, unverified TOTP
// factor. Its secret is answered once (and kept only sealed); the first
// code verified against it makes it verified.
func (s *Service) handleEnroll(w http.ResponseWriter, r *http.Request) {
	c, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	var p enrollParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	switch p.FactorType {
	case staff.FactorTOTP, FactorWebAuthn:
	case staff.FactorPhone:
		s.enrollPhone(w, r, c, p)
		return
	default:
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "factor_type needs to be totp, phone, or webauthn"))
		return
	}
	if !validFactorText(p.FriendlyName) || !validFactorText(p.Issuer) {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "friendly_name and issuer must be text of at most %d characters", maxFactorText))
		return
	}
	if p.FactorType == FactorWebAuthn {
		s.enrollWebAuthn(w, r, c, p)
		return
	}
	issuer := p.Issuer
	if issuer == "" {
		if u, err := url.Parse(s.cfg.SiteOrigin); err == nil {
			issuer = u.Host
		}
	}
	now := s.cfg.Now()
	f := staff.Factor{ID: uuid.NewString(), UserID: c.user.ID, FriendlyName: p.FriendlyName, FactorType: staff.FactorTOTP,
		Status: staff.FactorUnverified, CreatedAt: now, UpdatedAt: now}
	secret, err := newTOTPSecret()
	if err == nil {
		f.Secret, err = s.cfg.MFAKey.SealFactorSecret(secret, f.ID)
	}
	var a enrollAnswer
	a.ID, a.Type, a.FriendlyName = f.ID, staff.FactorTOTP, f.FriendlyName
	a.TOTP.Secret, a.TOTP.URI = secret, totpURI(issuer, c.user.Email, secret)
	if err == nil {
		a.TOTP.QRCode, err = qrSVG(a.TOTP.URI)
	}
	if err != nil {
		s.failed(w, r, "new TOTP factor", err)
		return
	}
	s.createFactor(w, r, c, f, newFactorCheck(f.FriendlyName, c.session), a)
}

// createFactor stores f, the caller's new factor, when check (given the
// caller's other factors) allows it, and answers answer; or GoTrue's
// refusal.
func (s *Service) createFactor(w http.ResponseWriter, r *http.Request, c caller, f staff.Factor, check func([]staff.Factor) error, answer any) {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	audit := s.callerAudit(r, c, staff.ActionFactorEnrolled, "factor "+f.ID)
	err := s.store.CreateFactor(ctx, f, f.CreatedAt.Add(-UnverifiedFactorExpiry), check, audit)
	switch {
	case errors.Is(err, staff.ErrFactorNameConflict):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAFactorNameConflict,
			"A factor with the friendly name %q for this user already exists", f.FriendlyName))
	case errors.Is(err, staff.ErrTooManyFactors):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeTooManyEnrolledMFAFactors, "Maximum number of verified factors reached, unenroll to continue"))
	case errors.Is(err, staff.ErrFactorNeedsAAL2):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusForbidden, gotrue.CodeInsufficientAAL, "AAL2 required to enroll a new factor"))
	case errors.Is(err, errPhoneFactorExists):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAVerifiedFactorHeld, "A verified phone factor already exists, unenroll the existing factor to continue"))
	case err != nil:
		s.failed(w, r, "create factor", err)
	default:
		api.WriteJSON(w, http.StatusOK, answer)
	}
}

func validFactorText(s string) bool {
	return utf8.ValidString(s) && utf8.RuneCountInString(s) <= maxFactorText
}

// newFactorCheck is GoTrue's rule for one more factor named name: no two
// of a user's factors share a name, at most MaxFactors, and a user with a
// verified factor enrols another only from an aal2 session.
func newFactorCheck(name string, sess staff.Session) func([]staff.Factor) error {
	return func(existing []staff.Factor) error {
		verified := 0
		for _, f := range existing {
			if f.FriendlyName == name {
				return staff.ErrFactorNameConflict
			}
			if f.Verified() {
				verified++
			}
		}
		switch {
		case len(existing) >= MaxFactors:
			return staff.ErrTooManyFactors
		case verified > 0 && sess.AAL != staff.AAL2:
			return staff.ErrFactorNeedsAAL2
		}
		return nil
	}
}

// callerAudit is an audit entry of action by the caller.
func (s *Service) callerAudit(r *http.Request, c caller, action, detail string) staff.AuditEntry {
	a := s.audit(r, action)
	a.Email, a.UserID, a.SessionID, a.Detail = c.user.Email, c.user.ID, c.session.ID, detail
	return a
}

// callerFactor is the caller's factor named by the path's id; otherwise it
// answers GoTrue's 404 and returns false.
func (s *Service) callerFactor(w http.ResponseWriter, r *http.Request) (caller, staff.Factor, bool) {
	c, ok := s.authenticate(w, r)
	if !ok {
		return c, staff.Factor{}, false
	}
	id := r.PathValue("id")
	if uuid.Validate(id) != nil {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeValidationFailed, "factor_id must be an UUID"))
		return c, staff.Factor{}, false
	}
	for _, f := range c.user.Factors {
		if f.ID == id {
			return c, f, true
		}
	}
	gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeMFAFactorNotFound, "Factor not found"))
	return c, staff.Factor{}, false
}

// challengeAnswer is the answer of POST /factors/{id}/challenge.
type challengeAnswer struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	ExpiresAt int64  `json:"expires_at"`
}

// handleChallenge handles POST /auth/v1/factors/{id}/challenge: a challenge
// that a code of the factor can be verified against, from this address,
// until it expires.
func (s *Service) handleChallenge(w http.ResponseWriter, r *http.Request) {
	c, f, ok := s.callerFactor(w, r)
	if !ok {
		return
	}
	if f.FactorType == FactorWebAuthn {
		s.challengeWebAuthn(w, r, c, f)
		return
	}
	var p struct {
		Channel string `json:"channel"`
	}
	if !gotrue.DecodeBody(w, r, &p) || !s.allow(w, r, s.limitVerify) {
		return
	}
	now := s.cfg.Now()
	ch := staff.Challenge{ID: uuid.NewString(), FactorID: f.ID, IP: s.cfg.ClientIP(r), CreatedAt: now, ExpiresAt: now.Add(s.cfg.MFAChallengeExpiry)}
	if f.FactorType == staff.FactorPhone {
		s.challengePhone(w, r, f, ch, p.Channel)
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	// Challenges are frequent and tell little: not in the audit log.
	switch err := s.store.CreateChallenge(ctx, ch, staff.AuditEntry{}); {
	case errors.Is(err, staff.ErrNotFound):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeMFAFactorNotFound, "Factor not found"))
	case err != nil:
		s.failed(w, r, "create challenge", err)
	default:
		api.WriteJSON(w, http.StatusOK, challengeAnswer{ID: ch.ID, Type: f.FactorType, ExpiresAt: ch.ExpiresAt.Unix()})
	}
}

// factorVerifyParams is the body of POST /factors/{id}/verify.
type factorVerifyParams struct {
	ChallengeID string `json:"challenge_id"`
	Code        string `json:"code"`
}

// handleFactorVerify handles POST /auth/v1/factors/{id}/verify: a right
// code raises the session to aal2 (amr gains totp) and answers it with a
// new refresh token.
func (s *Service) handleFactorVerify(w http.ResponseWriter, r *http.Request) {
	c, f, ok := s.callerFactor(w, r)
	if !ok {
		return
	}
	if f.FactorType == FactorWebAuthn {
		s.verifyWebAuthn(w, r, c, f)
		return
	}
	var p factorVerifyParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	switch {
	case uuid.Validate(p.ChallengeID) != nil:
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "challenge_id must be a UUID"))
		return
	case p.Code == "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Code needs to be non-empty"))
		return
	}
	amr, codeName := factorAMR(f.FactorType)
	v, refresh, ok := s.beginFactorVerification(w, r, c, f, p.ChallengeID, amr)
	if !ok {
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	now := v.Now
	v.MaxTries = staff.MaxCodeTries
	v.Check = func(sealed string, lastStep int64) (int64, bool, error) {
		secret, err := s.cfg.MFAKey.OpenFactorSecret(sealed, f.ID)
		if err != nil {
			return 0, false, err
		}
		return totpMatch(secret, p.Code, now, lastStep)
	}
	v.SentCode = sentCodeMatches(p.Code)
	v.Locked = s.callerAudit(r, c, staff.ActionFactorLocked, fmt.Sprintf("factor %s: %d wrong codes", f.ID, staff.MaxFailures))
	v.LockedMail = s.lockedMail(c.user, f, s.cfg.ClientIP(r))
	sess, u, err := s.store.VerifyFactor(ctx, v)
	var locked *staff.FactorLockedError
	if errors.As(err, &locked) {
		s.countSignIn("mfa_locked_out")
		wait := api.SetRetryAfter(w, locked.Until.Sub(now))
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusTooManyRequests, gotrue.CodeOverRequestRateLimit,
			"Too many wrong codes for this factor: it accepts no code for %d more seconds", wait))
		return
	}
	if errors.Is(err, staff.ErrVerificationFailed) {
		err = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAVerificationFailed, "Invalid %s code entered", codeName)
	}
	s.answerFactorVerified(w, r, p.ChallengeID, u, sess, refresh, err)
}

// beginFactorVerification is what a verification of every kind of factor
// starts with once its body has been read: the rate limit, the new refresh
// token, and the verification's common part (who, which challenge, from
// where, when, the amr entry the session gains with method, and its audit
// entries). ok false: the answer has been written.
func (s *Service) beginFactorVerification(w http.ResponseWriter, r *http.Request, c caller, f staff.Factor, challengeID, method string) (v staff.FactorVerification, refresh string, ok bool) {
	if !s.allow(w, r, s.limitVerify) {
		return v, "", false
	}
	refresh, err := staff.NewRefreshToken()
	if err != nil {
		s.failed(w, r, "new refresh token", err)
		return v, "", false
	}
	now := s.cfg.Now()
	detail := "factor " + f.ID
	return staff.FactorVerification{
		UserID: c.user.ID, FactorID: f.ID, ChallengeID: challengeID, SessionID: c.session.ID, IP: s.cfg.ClientIP(r),
		Now: now, AMR: staff.AMREntry{Method: method, Timestamp: now.Unix()}, RefreshHash: staff.RefreshHash(refresh),
		Audit:   s.callerAudit(r, c, staff.ActionFactorVerified, detail),
		Failure: s.callerAudit(r, c, staff.ActionFactorFailed, detail),
	}, refresh, true
}

// answerFactorVerified answers a verification against challengeID: the
// raised session sess of u with its new refresh token, or GoTrue's answer
// to err, VerifyFactor's refusal (an *gotrue.Error as it is).
func (s *Service) answerFactorVerified(w http.ResponseWriter, r *http.Request, challengeID string, u staff.User, sess staff.Session, refresh string, err error) {
	var e *gotrue.Error
	switch {
	case errors.As(err, &e):
	case errors.Is(err, staff.ErrChallengeNotFound):
		e = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAFactorNotFound, "MFA factor with the provided challenge ID not found")
	case errors.Is(err, staff.ErrChallengeIPMismatch):
		e = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAIPAddressMismatch, "Challenge and verify IP addresses mismatch.")
	case errors.Is(err, staff.ErrChallengeExpired):
		e = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAChallengeExpired,
			"MFA challenge %s has expired, verify against another challenge or create a new challenge.", challengeID)
	case errors.Is(err, staff.ErrSessionNotFound):
		e = gotrue.NewError(http.StatusForbidden, gotrue.CodeSessionNotFound, "Session from session_id claim in JWT does not exist")
	case err != nil:
		s.failed(w, r, "verify factor", err)
		return
	}
	if e != nil {
		s.countSignIn("mfa_" + strings.TrimPrefix(e.Code, "mfa_"))
		gotrue.WriteError(w, r, e)
		return
	}
	s.countSignIn("mfa_ok")
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	answer, err := s.sessionAnswer(ctx, u, sess, refresh, s.cfg.Now())
	if err != nil {
		s.failed(w, r, "sign access token", err)
		return
	}
	api.WriteJSON(w, http.StatusOK, answer)
}

// lockedMail is the mail that tells the owner of factor f that someone is
// guessing its codes: it is queued with the wrong code that locks the factor
// out, from ip. Nil when mail is off.
func (s *Service) lockedMail(u staff.User, f staff.Factor, ip string) *notify.Email {
	if s.cfg.MailFrom == "" {
		return nil
	}
	host := s.cfg.SiteOrigin
	if o, err := url.Parse(host); err == nil {
		host = o.Host
	}
	name := "your authenticator app"
	if f.FriendlyName != "" {
		name = fmt.Sprintf("your authenticator app %q", f.FriendlyName)
	}
	return &notify.Email{
		From:    s.cfg.MailFrom,
		To:      []string{u.Email},
		Subject: "Someone is guessing your second-factor codes",
		Body: fmt.Sprintf("Someone signed in as %s on %s has entered %d wrong codes of %s,\n"+
			"the last one from the address %s. To stop them guessing, it now accepts no code,\n"+
			"not even the right one, until %d minutes after the first wrong one.\n\n"+
			"If it was not you, someone can sign in with your e-mail: they need your\n"+
			"mailbox or a sign-in link mailed to you. Secure your mailbox, and ask the\n"+
			"site's operator to end your sessions and reset your second factor\n"+
			"(studio staff reset-mfa %s).\n",
			u.Email, host, staff.MaxFailures, name, ip, int(staff.FailureWindow.Minutes()), u.Email),
	}
}

// handleUnenroll handles DELETE /auth/v1/factors/{id}. A verified factor
// is removed only from an aal2 session; the sessions it raised fall to aal1.
func (s *Service) handleUnenroll(w http.ResponseWriter, r *http.Request) {
	c, f, ok := s.callerFactor(w, r)
	if !ok {
		return
	}
	if f.Verified() && c.session.AAL != staff.AAL2 {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeInsufficientAAL, "AAL2 required to unenroll verified factor"))
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	switch err := s.store.DeleteFactor(ctx, c.user.ID, f.ID, s.callerAudit(r, c, staff.ActionFactorRemoved, "factor "+f.ID)); {
	case errors.Is(err, staff.ErrNotFound):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeMFAFactorNotFound, "Factor not found"))
	case err != nil:
		s.failed(w, r, "delete factor", err)
	default:
		api.WriteJSON(w, http.StatusOK, map[string]string{"id": f.ID})
	}
}
