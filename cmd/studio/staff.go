package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/uuid"

	"studio/internal/auth"
	"studio/internal/auth/federated"
	"studio/internal/site"
	"studio/internal/staff"
	"studio/internal/store"
)

// The staff commands manage who may sign in at /auth/v1 (package auth).

var staffAddCommand = command{
	name:    "staff add",
	summary: "let a person sign in as staff",
	description: "studio staff add EMAIL [--name NAME] [--phone +E164]\n\n" +
		"Adds a member of staff, who can then sign in with a code mailed to EMAIL\n" +
		"(or printed by \"studio staff sign-in-code\"), or, with --phone and a server\n" +
		"run with --sms-url, sent by SMS to that number. There is no public sign-up.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		var name, phone string
		fs.StringVar(&name, "name", "", "the person's name (user_metadata.name)")
		fs.StringVar(&phone, "phone", "", "the person's phone number in E.164 (+ and up to 15 digits), which a code sent by SMS signs in")
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			email, err := oneEmail(fs, stderr)
			if err != nil {
				return err
			}
			if phone != "" {
				if phone, err = auth.NormalizePhone(phone); err != nil {
					return fmt.Errorf("--phone: %w", err)
				}
			}
			return withNewStore(ctx, *cfg, func(db *store.DB) error {
				now := time.Now().UTC()
				u := staff.User{ID: uuid.NewString(), Email: email, UserMetadata: map[string]any{}, CreatedAt: now, UpdatedAt: now, Phone: phone}
				if _, err := db.FindUserByPhone(ctx, phone); err == nil {
					return fmt.Errorf("+%s is already the phone of a member of staff", phone)
				}
				if name != "" {
					u.UserMetadata["name"] = name
				}
				err := db.CreateUser(ctx, u, staff.AuditEntry{At: now, Action: staff.ActionStaffAdded, Email: email, UserID: u.ID, IP: "cli"})
				if errors.Is(err, staff.ErrExists) {
					return fmt.Errorf("%s is already staff", email)
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "added %s (%s)\n", email, u.ID)
				return nil
			})
		}
	},
}

var staffListCommand = listCommand(
	"staff list",
	"print the staff who may sign in",
	"Prints every member of staff: id, address, name, phone, when added and when last signed in.",
	func(ctx context.Context, db *store.DB) (table, error) {
		users, err := db.ListUsers(ctx)
		type record struct {
			ID           string     `json:"id"`
			Email        string     `json:"email"`
			Name         string     `json:"name"`
			Phone        string     `json:"phone"`
			CreatedAt    time.Time  `json:"created_at"`
			LastSignInAt *time.Time `json:"last_sign_in_at"`
		}
		records := []record{}
		t := table{header: []string{"id", "email", "name", "phone", "created_at", "last_sign_in_at"}}
		for _, u := range users {
			phone := ""
			if u.Phone != "" {
				phone = "+" + u.Phone
			}
			records = append(records, record{u.ID, u.Email, u.Name(), phone, u.CreatedAt, u.LastSignInAt})
			last := ""
			if u.LastSignInAt != nil {
				last = timeCell(*u.LastSignInAt)
			}
			t.rows = append(t.rows, []string{u.ID, u.Email, u.Name(), phone, timeCell(u.CreatedAt), last})
		}
		t.records = records
		return t, err
	},
)

var staffRemoveCommand = staffCommand(
	"staff remove",
	"remove a member of staff and end their sessions",
	"studio staff remove EMAIL\n\n"+
		"Removes the member of staff and ends every session they have, at once:\n"+
		"their access tokens stop working on the next request.",
	nil,
	func(ctx context.Context, db *store.DB, u staff.User, stdout io.Writer) error {
		if _, err := db.RemoveUser(ctx, u.Email, cliAudit(staff.ActionStaffRemoved, u)); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %s; their sessions are ended\n", u.Email)
		return nil
	},
)

var staffSignInCodeCommand = func() command {
	var expiry time.Duration
	return staffCommand(
		"staff sign-in-code",
		"print a one-time sign-in code for a member of staff",
		"studio staff sign-in-code EMAIL\n\n"+
			"Prints a one-time 6-digit code that signs EMAIL in, with the same rules as a\n"+
			"mailed one (single use, expires, dead after 5 wrong tries); it replaces any\n"+
			"code mailed before. For the first sign-in of a studio with no mail server yet.",
		func(fs *flag.FlagSet, _ func(string) string) {
			fs.DurationVar(&expiry, "otp-expiry", 10*time.Minute, "how long the code works")
		},
		func(ctx context.Context, db *store.DB, u staff.User, stdout io.Writer) error {
			if expiry < time.Minute {
				return fmt.Errorf("--otp-expiry %s: want at least 1m", expiry)
			}
			code, _, c, err := staff.NewCode(u.ID, staff.PurposeSignIn, time.Now(), expiry)
			if err != nil {
				return err
			}
			if err := db.CreateCode(ctx, c, cliAudit(staff.ActionCodeCLIPrinted, u)); err != nil {
				return err
			}
			fmt.Fprintln(stdout, code)
			return nil
		},
	)
}()

var staffResetMFACommand = staffCommand(
	"staff reset-mfa",
	"remove a member of staff's second factors and end their sessions",
	"studio staff reset-mfa EMAIL\n\n"+
		"For someone who lost their authenticator app or passkey, or whose factor is\n"+
		"locked out because someone guessed its codes: removes every factor they enrolled\n"+
		"(and their counts of wrong codes, of sign-in codes too) and ends their sessions.\n"+
		"They sign in again by e-mail and enrol a new factor (with --require-mfa, before\n"+
		"they see any data).",
	nil,
	func(ctx context.Context, db *store.DB, u staff.User, stdout io.Writer) error {
		n, err := db.ResetFactors(ctx, u.ID, cliAudit(staff.ActionFactorRemoved, u))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %d factor(s) of %s; their sessions are ended\n", n, u.Email)
		return nil
	},
)

var staffLinkCommand = func() command {
	var provider, subject, siteURL, sender string
	return staffCommand(
		"staff link",
		"let an identity provider sign a member of staff in",
		"studio staff link EMAIL --provider NAME --subject SUBJECT\n\n"+
			"Ties the person SUBJECT at the identity provider NAME (an OpenID Connect\n"+
			"provider's name, or a SAML provider's id; SUBJECT is its sub claim or NameID)\n"+
			"to the member of staff EMAIL, who can then sign in there. A provider signs in\n"+
			"only the people linked to it (by this command, or by themselves in the console)\n"+
			"and the addresses of the domains it was added with; this is how staff outside\n"+
			"those domains sign in with it, and how a provider they unlinked is linked again.\n"+
			"The person is mailed that a sign-in method was added (when STUDIO_SMTP_URL and\n"+
			"STUDIO_NOTIFY_TO are set, as for studio serve), and the link is in the audit log.",
		func(fs *flag.FlagSet, env func(string) string) {
			fs.StringVar(&provider, "provider", "", "the identity provider: an OpenID Connect provider's name, or a SAML provider's id")
			fs.StringVar(&subject, "subject", "", "the person at the provider: the sub claim (OpenID Connect) or the NameID (SAML)")
			envString(fs, &siteURL, "site-url", "STUDIO_SITE_URL", site.BuildOrigin, "public origin of the site, named in the mail", env)
			sender = mailSender(env)
		},
		func(ctx context.Context, db *store.DB, u staff.User, stdout io.Writer) error {
			if provider == "" || strings.TrimSpace(subject) == "" {
				return errors.New("--provider and --subject are required")
			}
			p, err := db.FindProvider(ctx, provider)
			if errors.Is(err, staff.ErrNotFound) {
				p, err = db.FindProvider(ctx, strings.TrimPrefix(provider, "sso:"))
			}
			if errors.Is(err, staff.ErrNotFound) {
				return fmt.Errorf("no identity provider %q (studio oauth list, studio sso list)", provider)
			}
			if err != nil {
				return err
			}
			now := time.Now().UTC()
			id := staff.Identity{ID: uuid.NewString(), UserID: u.ID, Provider: p.Name, Subject: subject, Email: u.Email,
				Data: map[string]any{"sub": subject}, CreatedAt: now, UpdatedAt: now}
			audit := cliAudit(staff.ActionIdentityLinked, u)
			audit.Detail = p.Name
			err = db.SaveIdentity(ctx, id, &staff.Link{Mail: federated.LinkedMail(sender, siteURL, u, p, subject)}, audit)
			if errors.Is(err, staff.ErrExists) {
				return fmt.Errorf("%s at %s is already another member of staff's identity", subject, p.Label())
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "linked %s at %s to %s\n", subject, p.Label(), u.Email)
			return nil
		},
	)
}()

var staffUnlockCommand = staffCommand(
	"staff unlock",
	"let a member of staff's sign-in codes work again after a lockout",
	"studio staff unlock EMAIL\n\n"+
		"Someone who types 10 wrong sign-in codes for a person within an hour, mailed or\n"+
		"sent by SMS, locks that person's codes out until the hour ends (they are mailed,\n"+
		"and the audit log says codes_locked_out). This clears the person's count of wrong\n"+
		"codes at once, so that their next code works; it is logged as codes_unlocked.\n"+
		"Their sessions, factors and links are not touched.",
	nil,
	func(ctx context.Context, db *store.DB, u staff.User, stdout io.Writer) error {
		f, err := db.UnlockCodes(ctx, u.ID, cliAudit(staff.ActionCodesUnlocked, u))
		if err != nil {
			return err
		}
		if f.LockedUntil(time.Now()).IsZero() {
			fmt.Fprintf(stdout, "the codes of %s were not locked out; cleared %d wrong code(s)\n", u.Email, f.Count)
			return nil
		}
		fmt.Fprintf(stdout, "unlocked the codes of %s (%d wrong codes since %s)\n", u.Email, f.Count, f.Since.UTC().Format(time.RFC3339))
		return nil
	},
)

// staffCommand is a command about one member of staff, "NAME EMAIL":
// flags (when not nil) binds its own flags; run gets the store (--data or
// DATABASE_URL) and the person, or the command fails when EMAIL is not
// staff.
func staffCommand(name, summary, description string, flags func(*flag.FlagSet, func(string) string),
	run func(ctx context.Context, db *store.DB, u staff.User, stdout io.Writer) error) command {
	return command{
		name: name, summary: summary, description: description,
		setup: func(fs *flag.FlagSet, env func(string) string) action {
			cfg := storeFlags(fs, env)
			if flags != nil {
				flags(fs, env)
			}
			return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
				email, err := oneEmail(fs, stderr)
				if err != nil {
					return err
				}
				return withStore(ctx, *cfg, func(db *store.DB) error {
					u, err := db.FindUserByEmail(ctx, email)
					if errors.Is(err, staff.ErrNotFound) {
						return fmt.Errorf("%s is not staff (add them with studio staff add)", email)
					}
					if err != nil {
						return err
					}
					return run(ctx, db, u, stdout)
				})
			}
		},
	}
}

// mailSender is the sender of the mails studio serve sends, as its
// environment says: STUDIO_NOTIFY_FROM, else the first STUDIO_NOTIFY_TO;
// "" when it sends none (no STUDIO_SMTP_URL), so that a command queues no
// mail nobody would send.
func mailSender(env func(string) string) string {
	if env("STUDIO_SMTP_URL") == "" {
		return ""
	}
	if from := env("STUDIO_NOTIFY_FROM"); from != "" {
		return from
	}
	if to := splitList(env("STUDIO_NOTIFY_TO")); len(to) > 0 {
		return to[0]
	}
	return ""
}

// cliAudit is the audit entry of an operator's command about u.
func cliAudit(action string, u staff.User) staff.AuditEntry {
	return staff.AuditEntry{At: time.Now(), Action: action, Email: u.Email, UserID: u.ID, IP: "cli"}
}

// oneEmail returns the one positional argument, an e-mail address, in lower
// case; a usage error otherwise.
//
// The flag package stops at the first argument that is not a flag, so the
// flags after the address are parsed here.
func oneEmail(fs *flag.FlagSet, stderr io.Writer) (string, error) {
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "%s: want an e-mail address\n", fs.Name())
		return "", errUsage
	}
	arg := fs.Arg(0)
	if err := fs.Parse(fs.Args()[1:]); err != nil {
		return "", errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return "", errUsage
	}
	email, err := staff.NormalizeEmail(arg)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
		return "", errUsage
	}
	return email, nil
}

// withNewStore opens the store of cfg, creating it (and --data) when there
// is none yet, and closes it.
func withNewStore(ctx context.Context, cfg store.Config, f func(*store.DB) error) error {
	db, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	return f(db)
}
