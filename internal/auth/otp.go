package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/notify"
	"studio/internal/staff"
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
	gotrue.CaptchaParams
}

// normalizeEmail is staff.NormalizeEmail with GoTrue's answer to a bad address.
func normalizeEmail(s string) (string, *gotrue.Error) {
	s, err := staff.NormalizeEmail(s)
	if err != nil {
		return "", gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Unable to validate email address: invalid format")
	}
	return s, nil
}

// handleOTP handles POST /auth/v1/otp: mails a sign-in code and link to a
// member of staff (a phone gets a code by SMS: handleOTPPhone). Anyone else gets the same 200 {} and nothing is sent; the
// per-address limit applies to every address alike, so neither the answer
// nor the limit tells who is staff.
func (s *Service) handleOTP(w http.ResponseWriter, r *http.Request) {
	var p otpParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	switch {
	case p.Email != "" && p.Phone != "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Only an email address or phone number should be provided"))
		return
	case p.Phone != "":
		s.handleOTPPhone(w, r, p)
		return
	case p.Email == "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "One of email or phone must be set"))
		return
	}
	method, e := gotrue.PKCEMethod(p.CodeChallenge, p.CodeChallengeMethod)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	email, e := normalizeEmail(p.Email)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	if !s.allow(w, r, s.limitOTP) || !s.checkCaptcha(w, r, p.Security.CaptchaToken) {
		return
	}
	s.mailCode(w, r, email, staff.PurposeSignIn, p.CodeChallenge, method)
}

// mailCode answers a request for a code of purpose mailed to email: 429
// when a mail to the address was asked for less than EmailInterval ago,
// staff or not, else 200 {} at once. Only then, in the background, does it
// look the address up and, when it is staff's (and purpose is not empty),
// mail a code and link: the answer and its time are the same for anyone.
// challenge and method are the PKCE flow's, or empty.
func (s *Service) mailCode(w http.ResponseWriter, r *http.Request, email, purpose, challenge, method string) {
	if !s.claimEmailSend(w, r, email, nil, nil, staff.AuditEntry{}) {
		return
	}
	api.WriteJSON(w, http.StatusOK, struct{}{})
	if purpose == "" {
		return
	}
	redirectTo, audit := r.URL.Query().Get("redirect_to"), s.audit(r, "")
	s.inBackground(r, func(ctx context.Context) {
		u, err := s.store.FindUserByEmail(ctx, email)
		switch {
		case errors.Is(err, staff.ErrNotFound):
			return
		case err != nil:
			s.cfg.Logger.Error("auth: find user to mail a code", "err", err)
			return
		}
		code, msg, audit, err := s.newCode(codeRequest{user: u, to: email, purpose: purpose, challenge: challenge, method: method}, redirectTo, audit)
		if err == nil && code != nil {
			err = s.store.QueueCode(ctx, *code, msg, audit)
		}
		if err != nil {
			s.cfg.Logger.Error("auth: queue a code", "user_id", u.ID, "err", err)
			return
		}
		s.mailQueued(msg)
	})
}

// codeRequest is a code to mail to a member of staff.
type codeRequest struct {
	user              staff.User
	to                string
	purpose           string
	challenge, method string // PKCE
	newEmail          string // PurposeEmailChange
}

// newCode makes the code of c and its mail (with a link to redirectTo when
// allowed), and audit as its audit entry; no code when mail is off.
func (s *Service) newCode(c codeRequest, redirectTo string, audit staff.AuditEntry) (*staff.Code, *notify.Email, staff.AuditEntry, error) {
	if s.cfg.MailFrom == "" {
		s.cfg.Logger.Warn("auth: a code was asked for, but mail is off; use studio staff sign-in-code", "user_id", c.user.ID)
		return nil, nil, audit, nil
	}
	plain, tokenHash, code, err := staff.NewCode(c.user.ID, c.purpose, s.cfg.Now(), s.cfg.OTPExpiry)
	if err != nil {
		return nil, nil, audit, err
	}
	code.CodeChallenge, code.CodeChallengeMethod, code.NewEmail = c.challenge, c.method, c.newEmail
	msg := s.codeMail(c.to, c.purpose, plain, tokenHash, c.method != "", redirectTo)
	// The code and link sign in: sealed while queued, so that neither the
	// outbox nor the database's log or backups hold them in clear.
	if err := msg.SealBody(s.cfg.MFAKey); err != nil {
		return nil, nil, audit, err
	}
	audit.Action, audit.Email, audit.UserID, audit.Detail = staff.ActionCodeIssued, c.user.Email, c.user.ID, c.purpose
	return &code, msg, audit, nil
}

// queueCode mails the code of c to a signed-in member of staff, in the
// same transaction as the per-address limit's record, and answers answer,
// or 429.
func (s *Service) queueCode(w http.ResponseWriter, r *http.Request, c codeRequest, answer any) {
	code, msg, audit, err := s.newCode(c, r.URL.Query().Get("redirect_to"), s.audit(r, ""))
	if err != nil {
		s.failed(w, r, "new code", err)
		return
	}
	if s.claimEmailSend(w, r, c.to, code, msg, audit) {
		s.mailQueued(msg)
		api.WriteJSON(w, http.StatusOK, answer)
	}
}

// claimEmailSend records a mail to the address (with code, msg and audit
// when not nil), or answers 429 (or 500) and returns false.
func (s *Service) claimEmailSend(w http.ResponseWriter, r *http.Request, to string, code *staff.Code, msg *notify.Email, audit staff.AuditEntry) bool {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	retry, err := s.store.ClaimEmailSend(ctx, staff.AddressHash(to), s.cfg.Now(), EmailInterval, code, msg, audit)
	switch {
	case errors.Is(err, staff.ErrEmailSendRateExceeded):
		seconds := api.SetRetryAfter(w, retry)
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusTooManyRequests, gotrue.CodeOverEmailSendRateLimit,
			"For security purposes, you can only request this after %d seconds.", seconds))
		return false
	case err != nil:
		s.failed(w, r, "queue mail", err)
		return false
	}
	return true
}

// mailQueued wakes the sender when msg was queued.
func (s *Service) mailQueued(msg *notify.Email) {
	if msg != nil && s.cfg.MailQueued != nil {
		s.cfg.MailQueued()
	}
}

// inBackground runs f after the answer, with the store's deadline, once
// one of MaxBackground slots is free (the handler waits for it; a client
// that goes away meanwhile leaves nothing to do); Wait waits for it.
func (s *Service) inBackground(r *http.Request, f func(ctx context.Context)) {
	select {
	case s.backgroundSlots <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	s.background.Add(1)
	go func() {
		defer func() { <-s.backgroundSlots; s.background.Done() }()
		ctx, cancel := context.WithTimeout(context.Background(), api.StoreTimeout)
		defer cancel()
		f(ctx)
	}()
}

// Wait waits until the work that requests left to do after their answer
// (looking up an address and mailing it a code) is done. Call it before
// closing the store.
func (s *Service) Wait() { s.background.Wait() }

// codeMail is the mail with the code and the link. The link opens
// redirectTo when the allow-list has it, else the staff console, with
// token_hash and type in the query for the page to verify; for the PKCE
// flow, the token as code instead, for the page to exchange with its
// verifier (exchangeCodeForSession): a PKCE token does not sign in
// through /verify.
func (s *Service) codeMail(to, purpose, code, tokenHash string, pkce bool, redirectTo string) *notify.Email {
	linkType, subject, what := "magiclink", "Your sign-in code", "sign in to"
	switch purpose {
	case staff.PurposeRecovery:
		linkType, subject, what = "recovery", "Your account recovery code", "recover your access to"
	case staff.PurposeEmailChange:
		linkType, subject, what = "email_change", "Confirm your new e-mail address", "make this your sign-in address for"
	case staff.PurposeReauthentication:
		linkType, subject, what = "", "Your confirmation code", "confirm a change to your account on"
	}
	q := url.Values{"token_hash": {tokenHash}, "type": {linkType}}
	if pkce {
		q = url.Values{"code": {tokenHash}}
	}
	link := s.cfg.Redirects.Link(redirectTo, q)
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
