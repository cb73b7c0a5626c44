package auth

import (
	"fmt"
	"net/http"
	"time"

	"studio/internal/api"
	"studio/internal/notify"
)

// Someone who guesses the 6-digit codes mailed or sent by SMS is stopped per
// person, whatever address they guess from and whichever code or channel
// they guess: MaxCodeFailures wrong codes typed for a person (with their
// e-mail address or their phone number) within CodeFailureWindow make every
// code typed for them refused, right or wrong, until that window ends. The
// window begins with its first wrong code. The store keeps the count, so it
// holds across servers, until the window ends, studio staff unlock or
// studio staff reset-mfa. An address or number that is no one's is counted
// and locked alike: the answers do not tell who is staff.
//
// What cannot be guessed is not counted nor refused: a mail's link (256
// random bits) and federated sign-in still sign the person in, their
// sessions go on, and passkeys and TOTP (which has its own count,
// FactorFailures) still raise them to aal2; so a stranger who locks the
// codes does not lock the person out.
const (
	MaxCodeFailures   = 10
	CodeFailureWindow = time.Hour
)

// CodeFailures are the wrong codes typed for one person in their current
// window.
type CodeFailures struct {
	Count int
	Since time.Time // the window's first wrong code; zero for none
}

// LockedUntil returns, when the person's codes are locked out at now, the
// time they are accepted again; otherwise the zero time.
func (f CodeFailures) LockedUntil(now time.Time) time.Time {
	end := f.Since.Add(CodeFailureWindow)
	if f.Count >= MaxCodeFailures && now.Before(end) {
		return end
	}
	return time.Time{}
}

// CodeFailure is what the store writes for a refused try of a code typed
// with an address or a number (ConsumeCodeByEmail, ConsumeCodeByPhone,
// ConsumeEmailChange).
type CodeFailure struct {
	// Audit is the base of every refused try's entry (FailedTry).
	Audit AuditEntry
	// Locked is logged with the wrong code that locks the person's codes
	// out, with their address and id when they are staff; LockedMail (when
	// not nil) is then called with their address and its mail queued, for
	// a member of staff only.
	Locked     AuditEntry
	LockedMail func(to string) *notify.Email
}

// CodesLockedError is the refusal of a code typed while the person's codes
// are locked out: no code was checked.
type CodesLockedError struct {
	Until time.Time
}

func (e *CodesLockedError) Error() string {
	return fmt.Sprintf("sign-in codes locked out until %s: too many wrong codes", e.Until.Format(time.RFC3339))
}

// codeFailure is the CodeFailure of a typed code, audit the base of its
// entries.
func (s *Service) codeFailure(audit AuditEntry) CodeFailure {
	locked := audit
	locked.Action = ActionCodesLocked
	locked.Detail = fmt.Sprintf("%d wrong codes", MaxCodeFailures)
	if audit.Detail != "" {
		locked.Detail += " (the last by " + audit.Detail + ")"
	}
	return CodeFailure{Audit: audit, Locked: locked, LockedMail: func(to string) *notify.Email { return s.codesLockedMail(to, audit.IP) }}
}

// codesLockedMail is the mail that tells the member of staff at the address
// to that someone is guessing their sign-in codes: it is queued with the
// wrong code, from ip, that locks the codes out. Nil when mail is off.
func (s *Service) codesLockedMail(to, ip string) *notify.Email {
	if s.cfg.MailFrom == "" {
		return nil
	}
	minutes := int(CodeFailureWindow.Minutes())
	return &notify.Email{
		From:    s.cfg.MailFrom,
		To:      []string{to},
		Subject: "Sign-in codes locked for an hour",
		Body: fmt.Sprintf("Sign-in codes for your account %s on %s were entered wrongly %d times,\n"+
			"the last one from the address %s. To stop anyone guessing them, no code\n"+
			"mailed or sent to your phone works, not even the right one, until %d minutes\n"+
			"after the first wrong one.\n\n"+
			"Meanwhile you can still sign in with the link in a sign-in mail, or with your\n"+
			"identity provider if you use one; your passkey or authenticator app still\n"+
			"confirm your sign-ins, and the devices you are signed in on stay signed in.\n\n"+
			"If it was not you, someone is trying to sign in as you; they would still need\n"+
			"a code from your mailbox or phone. To use codes again sooner, ask the site's\n"+
			"operator to clear the lock (studio staff unlock %s).\n",
			to, s.siteHost(), MaxCodeFailures, ip, minutes, to),
	}
}

// answerCodesLocked answers a code refused because the person's codes are
// locked out: 429 over_request_rate_limit, Retry-After until they are not.
func (s *Service) answerCodesLocked(w http.ResponseWriter, r *http.Request, locked *CodesLockedError) {
	s.countSignIn("codes_locked_out")
	wait := api.SetRetryAfter(w, locked.Until.Sub(s.cfg.Now()))
	writeError(w, r, newError(http.StatusTooManyRequests, codeOverRequestRateLimit,
		"Too many wrong codes: no code is accepted for this account for %d more seconds", wait))
}
