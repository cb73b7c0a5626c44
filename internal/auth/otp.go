package auth

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"time"

	"studio/internal/notify"
)

// otpParams is the body of POST /otp.
type otpParams struct {
	Email               string         `json:"email"`
	Phone               string         `json:"phone"`
	CreateUser          *bool          `json:"create_user"`
	Data                map[string]any `json:"data"`
	CodeChallenge       string         `json:"code_challenge"`
	CodeChallengeMethod string         `json:"code_challenge_method"`
	Channel             string         `json:"channel"`
}

// normalizeEmail is NormalizeEmail with GoTrue's answer to a bad address.
func normalizeEmail(s string) (string, *apiError) {
	s, err := NormalizeEmail(s)
	if err != nil {
		return "", newError(http.StatusBadRequest, codeValidationFailed, "Unable to validate email address: invalid format")
	}
	return s, nil
}

// handleOTP handles POST /auth/v1/otp: mails a sign-in code and link to a
// member of staff. Anyone else gets the same 200 {} and nothing is sent; the
// per-address limit applies to every address alike, so neither the answer
// nor the limit tells who is staff.
func (s *Service) handleOTP(w http.ResponseWriter, r *http.Request) {
	var p otpParams
	if !decodeBody(w, r, &p) {
		return
	}
	switch {
	case p.Email != "" && p.Phone != "":
		writeError(w, r, newError(http.StatusBadRequest, codeValidationFailed, "Only an email address or phone number should be provided"))
		return
	case p.Phone != "":
		writeError(w, r, errPhoneNotOffered)
		return
	case p.Email == "":
		writeError(w, r, newError(http.StatusBadRequest, codeValidationFailed, "One of email or phone must be set"))
		return
	}
	method, e := pkceMethod(p.CodeChallenge, p.CodeChallengeMethod)
	if e != nil {
		writeError(w, r, e)
		return
	}
	email, e := normalizeEmail(p.Email)
	if e != nil {
		writeError(w, r, e)
		return
	}
	if !s.allow(w, r, s.limitOTP) {
		return
	}
	s.mailCode(w, r, email, PurposeSignIn, p.CodeChallenge, method)
}

// mailCode mails a code and link of purpose to email when it is staff's
// (and purpose is not empty), and answers 200 {} either way; or 429 when a
// mail to the address was asked for less than EmailInterval ago, staff or
// not. challenge and method are the PKCE flow's, or empty.
func (s *Service) mailCode(w http.ResponseWriter, r *http.Request, email, purpose, challenge, method string) {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	u, err := s.store.FindUserByEmail(ctx, email)
	if err != nil && !errors.Is(err, ErrNotFound) {
		s.failed(w, r, "find user", err)
		return
	}
	s.queueCode(w, r, codeRequest{staff: err == nil && purpose != "", user: u, to: email, purpose: purpose,
		challenge: challenge, method: method, answer: struct{}{}})
}

// codeRequest is a code to mail and what to answer once it is queued.
type codeRequest struct {
	staff             bool // false: send nothing, answer the same
	user              User
	to                string
	purpose           string
	challenge, method string // PKCE
	newEmail          string // PurposeEmailChange
	answer            any
}

// queueCode queues the mail of c (when c.staff) in the same transaction as
// the per-address limit's record, and answers c.answer, or 429.
func (s *Service) queueCode(w http.ResponseWriter, r *http.Request, c codeRequest) {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	now := s.cfg.Now()
	var code *Code
	var msg *notify.Email
	audit := s.audit(r, "")
	switch {
	case c.staff && s.cfg.MailFrom != "":
		plain, tokenHash, row, err := NewCode(c.user.ID, c.purpose, now, s.cfg.OTPExpiry)
		if err != nil {
			s.failed(w, r, "new code", err)
			return
		}
		row.CodeChallenge, row.CodeChallengeMethod, row.NewEmail = c.challenge, c.method, c.newEmail
		code = &row
		msg = s.codeMail(c.to, c.purpose, plain, tokenHash, c.method != "", r.URL.Query().Get("redirect_to"))
		audit.Action, audit.Email, audit.UserID, audit.Detail = ActionCodeIssued, c.user.Email, c.user.ID, c.purpose
	case c.staff:
		s.cfg.Logger.Warn("auth: a code was asked for, but mail is off; use studio staff sign-in-code", "user_id", c.user.ID)
	}
	retry, err := s.store.ClaimEmailSend(ctx, AddressHash(c.to), now, EmailInterval, code, msg, audit)
	switch {
	case errors.Is(err, ErrEmailSendRateExceeded):
		w.Header().Set("Retry-After", fmt.Sprint(int(math.Ceil(retry.Seconds()))))
		writeError(w, r, newError(http.StatusTooManyRequests, codeOverEmailSendRateLimit,
			"For security purposes, you can only request this after %d seconds.", int(math.Ceil(retry.Seconds()))))
		return
	case err != nil:
		s.failed(w, r, "queue mail", err)
		return
	}
	if msg != nil && s.cfg.MailQueued != nil {
		s.cfg.MailQueued()
	}
	writeJSON(w, http.StatusOK, c.answer)
}

// codeMail is the mail with the code and the link. The link opens
// redirectTo when it is a page of this site or of an allowed origin, else
// the staff console, with token_hash and type in the query for the page to
// verify, and for the PKCE flow the same token as code, for the page to
// exchange (exchangeCodeForSession).
func (s *Service) codeMail(to, purpose, code, tokenHash string, pkce bool, redirectTo string) *notify.Email {
	link := s.cfg.SiteOrigin + "/admin"
	if u, err := url.Parse(redirectTo); err == nil && redirectTo != "" && u.RawQuery == "" && u.Fragment == "" {
		if origin := u.Scheme + "://" + u.Host; origin == s.cfg.SiteOrigin || s.cors.Allows(origin) {
			link = redirectTo
		}
	}
	linkType, subject, what := "magiclink", "Your sign-in code", "sign in to"
	switch purpose {
	case PurposeRecovery:
		linkType, subject, what = "recovery", "Your account recovery code", "recover your access to"
	case PurposeEmailChange:
		linkType, subject, what = "email_change", "Confirm your new e-mail address", "make this your sign-in address for"
	case PurposeReauthentication:
		linkType, subject, what = "", "Your confirmation code", "confirm a change to your account on"
	}
	q := url.Values{"token_hash": {tokenHash}, "type": {linkType}}
	if pkce {
		q.Set("code", tokenHash)
	}
	link += "?" + q.Encode()
	host := s.cfg.SiteOrigin
	if u, err := url.Parse(host); err == nil {
		host = u.Host
	}
	minutes := int(s.cfg.OTPExpiry / time.Minute)
	orLink := fmt.Sprintf("Or open this link on the device you are signing in on:\n%s\n\n", link)
	if linkType == "" {
		orLink = "" // a nonce to type, no link
	}
	return &notify.Email{
		From:    s.cfg.MailFrom,
		To:      []string{to},
		Subject: subject,
		Body: fmt.Sprintf("Your code to %s %s is:\n\n    %s\n\n%s"+
			"The code works once and expires in %d minutes. If you did not ask for it, ignore this mail.\n",
			what, host, code, orLink, minutes),
	}
}
