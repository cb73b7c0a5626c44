package auth

import (
	"fmt"
	"net/http"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/notify"
	"studio/internal/staff"
)

// codeFailure is the CodeFailure of a typed code, audit the base of its
// entries.
func (s *Service) codeFailure(audit staff.AuditEntry) staff.CodeFailure {
	locked := audit
	locked.Action = staff.ActionCodesLocked
	locked.Detail = fmt.Sprintf("%d wrong codes", staff.MaxFailures)
	if audit.Detail != "" {
		locked.Detail += " (the last by " + audit.Detail + ")"
	}
	return staff.CodeFailure{Audit: audit, Locked: locked, LockedMail: func(to string) *notify.Email { return s.codesLockedMail(to, audit.IP) }}
}

// codesLockedMail is the mail that tells the member of staff at the address
// to that someone is guessing their sign-in codes: it is queued with the
// wrong code, from ip, that locks the codes out. Nil when mail is off.
func (s *Service) codesLockedMail(to, ip string) *notify.Email {
	if s.cfg.MailFrom == "" {
		return nil
	}
	minutes := int(staff.FailureWindow.Minutes())
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
			to, s.siteHost(), staff.MaxFailures, ip, minutes, to),
	}
}

// answerCodesLocked answers a code refused because the person's codes are
// locked out: 429 over_request_rate_limit, Retry-After until they are not.
func (s *Service) answerCodesLocked(w http.ResponseWriter, r *http.Request, locked *staff.CodesLockedError) {
	s.countSignIn("codes_locked_out")
	wait := api.SetRetryAfter(w, locked.Until.Sub(s.cfg.Now()))
	gotrue.WriteError(w, r, gotrue.NewError(http.StatusTooManyRequests, gotrue.CodeOverRequestRateLimit,
		"Too many wrong codes: no code is accepted for this account for %d more seconds", wait))
}
