package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"studio/internal/notify"
	"studio/internal/staff"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

func code(userID, codeHash, linkHash string, at time.Time) staff.Code {
	return staff.Code{UserID: userID, Purpose: staff.PurposeSignIn, CodeHash: codeHash, LinkHash: linkHash, CreatedAt: at, ExpiresAt: at.Add(10 * time.Minute)}
}

func testCodes(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	consume := func(hash string, at time.Time) error {
		return db.ConsumeCode(ctx, ada.ID, staff.PurposeSignIn, hash, at, 5, staff.AuditEntry{})
	}
	if err := consume("right", t0); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("no code yet: err = %v, want ErrCodeInvalid", err)
	}
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link1", t0), staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		hash string
		at   time.Time
		want error
	}{
		{"wrong code", "wrong", t0.Add(time.Second), staff.ErrCodeInvalid},
		{"right code", "right", t0.Add(2 * time.Second), nil},
		{"used twice", "right", t0.Add(3 * time.Second), staff.ErrCodeInvalid},
	}
	for _, s := range steps {
		if err := consume(s.hash, s.at); !errors.Is(err, s.want) && err != s.want {
			t.Errorf("%s: err = %v, want %v", s.name, err, s.want)
		}
	}

	// Expired.
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link2", t0), staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if err := consume("right", t0.Add(10*time.Minute)); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("expired: err = %v, want ErrCodeInvalid", err)
	}

	// Dead after five wrong tries, even for the right code.
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link3", t0), staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := consume(fmt.Sprint("wrong", i), t0); !errors.Is(err, staff.ErrCodeInvalid) {
			t.Fatalf("wrong try %d: %v", i, err)
		}
	}
	if err := consume("right", t0); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("after five wrong tries: err = %v, want ErrCodeInvalid", err)
	}
	if _, err := db.ConsumeLink(ctx, "link3", staff.PurposeSignIn, t0, 5, staff.AuditEntry{}, nil); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("link after five wrong tries: err = %v, want ErrCodeInvalid", err)
	}

	// By address: the user's code, or nothing for an address that is not
	// staff's; match sees the user and the stored hash.
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link4", t0), staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	byEmail := func(email, hash string) (staff.User, error) {
		return db.ConsumeCodeByEmail(ctx, email, staff.PurposeSignIn, t0, 5,
			func(userID, stored string) bool { return userID == ada.ID && stored == hash }, staff.CodeFailure{}, nil)
	}
	if _, err := byEmail("eve@studio.test", "right"); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("by an address that is not staff's: err = %v, want ErrCodeInvalid", err)
	}
	if _, err := byEmail(ada.Email, "wrong"); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("wrong code by address: err = %v, want ErrCodeInvalid", err)
	}
	if u, err := byEmail(ada.Email, "right"); err != nil || u.ID != ada.ID {
		t.Errorf("ConsumeCodeByEmail = %q, %v", u.ID, err)
	}
	if _, err := byEmail(ada.Email, "right"); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("used twice by address: err = %v, want ErrCodeInvalid", err)
	}

	// A new code replaces the old one; its link works once.
	if err := db.CreateCode(ctx, code(ada.ID, "old", "link-old", t0), staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateCode(ctx, code(ada.ID, "new", "link-new", t0), staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ConsumeLink(ctx, "link-old", staff.PurposeSignIn, t0, 5, staff.AuditEntry{}, nil); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("replaced link: err = %v, want ErrCodeInvalid", err)
	}
	if _, err := db.ConsumeLink(ctx, "link-new", staff.PurposeRecovery, t0.Add(time.Minute), 5, staff.AuditEntry{}, nil); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("link of another purpose: err = %v, want ErrCodeInvalid", err)
	}
	used, err := db.ConsumeLink(ctx, "link-new", staff.PurposeSignIn, t0.Add(time.Minute), 5, staff.AuditEntry{}, nil)
	if err != nil || used.ID != ada.ID {
		t.Errorf("ConsumeLink = %q, %v", used.ID, err)
	}
	if err := consume("new", t0.Add(time.Minute)); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("code of a used link: err = %v, want ErrCodeInvalid", err)
	}
	if _, err := db.ConsumeLink(ctx, "link-new", staff.PurposeSignIn, t0.Add(time.Minute), 5, staff.AuditEntry{}, nil); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("link used twice: err = %v, want ErrCodeInvalid", err)
	}
}

func testEmailSends(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	mail := &notify.Email{From: "site@studio.test", To: []string{ada.Email}, Subject: "Your sign-in code", Body: "123456"}
	c := code(ada.ID, "h", "l", t0)
	if _, err := db.ClaimEmailSend(ctx, "ada-hash", t0, time.Minute, &c, mail, staff.AuditEntry{At: t0, Action: staff.ActionCodeIssued}); err != nil {
		t.Fatal(err)
	}
	retry, err := db.ClaimEmailSend(ctx, "ada-hash", t0.Add(20*time.Second), time.Minute, &c, mail, staff.AuditEntry{})
	if !errors.Is(err, staff.ErrEmailSendRateExceeded) || retry != 40*time.Second {
		t.Errorf("second within a minute: retry %v, err %v; want 40s, ErrEmailSendRateExceeded", retry, err)
	}
	// Another address (someone who is not staff: no code, no mail) is not held up.
	if _, err := db.ClaimEmailSend(ctx, "eve-hash", t0.Add(20*time.Second), time.Minute, nil, nil, staff.AuditEntry{}); err != nil {
		t.Errorf("other address: %v", err)
	}
	if _, err := db.ClaimEmailSend(ctx, "eve-hash", t0.Add(30*time.Second), time.Minute, nil, nil, staff.AuditEntry{}); !errors.Is(err, staff.ErrEmailSendRateExceeded) {
		t.Errorf("non-staff address twice: err = %v, want ErrEmailSendRateExceeded", err)
	}
	c2 := code(ada.ID, "h2", "l2", t0.Add(time.Minute))
	if _, err := db.ClaimEmailSend(ctx, "ada-hash", t0.Add(time.Minute), time.Minute, &c2, mail, staff.AuditEntry{}); err != nil {
		t.Errorf("after a minute: %v", err)
	}
	outbox, err := db.ListOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(outbox) != 2 || outbox[0].Subject != "Your sign-in code" || outbox[0].ContactMessageID != "" {
		t.Errorf("outbox = %+v, want two sign-in mails", outbox)
	}
	// QueueCode: a code and its mail without a claim (the claim was made
	// before the answer).
	c3 := code(ada.ID, "h3", "l3", t0.Add(time.Minute))
	if err := db.QueueCode(ctx, c3, mail, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if outbox, err = db.ListOutbox(ctx); err != nil || len(outbox) != 3 {
		t.Errorf("outbox after QueueCode: %d mails, %v", len(outbox), err)
	}
	if err := db.ConsumeCode(ctx, ada.ID, staff.PurposeSignIn, "h3", t0.Add(time.Minute), 5, staff.AuditEntry{}); err != nil {
		t.Errorf("the mailed code: %v", err)
	}
}

func testPKCE(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	plain := code(ada.ID, "c1", "plain-link", t0)
	withChallenge := code(ada.ID, "c2", "pkce-link", t0)
	withChallenge.CodeChallenge, withChallenge.CodeChallengeMethod = "challenge", "s256"
	var gotChallenge, gotMethod string
	check := func(ok bool) func(string, string) bool {
		return func(c, m string) bool { gotChallenge, gotMethod = c, m; return ok }
	}
	if err := db.CreateCode(ctx, plain, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ConsumePKCE(ctx, "plain-link", t0, 5, check(true), staff.AuditEntry{}); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("code without a challenge: err = %v, want ErrNotFound", err)
	}
	if err := db.CreateCode(ctx, withChallenge, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	// Its link does not sign in without the verifier, and stays for it.
	for range 6 {
		if _, err := db.ConsumeLink(ctx, "pkce-link", staff.PurposeSignIn, t0, 5, staff.AuditEntry{}, nil); !errors.Is(err, staff.ErrPKCERequired) {
			t.Errorf("link of a PKCE code: err = %v, want ErrPKCERequired", err)
		}
	}
	if _, _, err := db.ConsumePKCE(ctx, "pkce-link", t0, 5, check(false), staff.AuditEntry{}); !errors.Is(err, staff.ErrBadCodeVerifier) {
		t.Errorf("wrong verifier: err = %v", err)
	}
	if gotChallenge != "challenge" || gotMethod != "s256" {
		t.Errorf("verifier saw %q %q", gotChallenge, gotMethod)
	}
	if _, _, err := db.ConsumePKCE(ctx, "pkce-link", t0.Add(10*time.Minute), 5, check(true), staff.AuditEntry{}); !errors.Is(err, staff.ErrFlowStateExpired) {
		t.Errorf("expired: err = %v", err)
	}
	userID, _, err := db.ConsumePKCE(ctx, "pkce-link", t0.Add(time.Minute), 5, check(true), staff.AuditEntry{})
	if err != nil || userID != ada.ID {
		t.Errorf("ConsumePKCE = %q, %v", userID, err)
	}
	if _, _, err := db.ConsumePKCE(ctx, "pkce-link", t0.Add(time.Minute), 5, check(true), staff.AuditEntry{}); !errors.Is(err, staff.ErrNotFound) {
		t.Errorf("used twice: err = %v, want ErrNotFound", err)
	}
}

func testEmailChange(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	bob := member("00000000-0000-4000-8000-000000000002", "bob@studio.test")
	mustAddUser(t, db, ada)
	mustAddUser(t, db, bob)
	change := func(hash, link, to string) {
		c := code(ada.ID, hash, link, t0)
		c.Purpose, c.NewEmail = staff.PurposeEmailChange, to
		if err := db.CreateCode(ctx, c, staff.AuditEntry{}); err != nil {
			t.Fatal(err)
		}
	}
	match := func(want string) func(string, string) bool {
		return func(userID, stored string) bool { return userID == ada.ID && stored == want }
	}
	change("h1", "l1", "lovelace@studio.test")
	if _, err := db.ConsumeEmailChange(ctx, "lovelace@studio.test", t0, 5, match("wrong"), staff.CodeFailure{}, nil); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Errorf("wrong code: err = %v", err)
	}
	// Found by the current address too.
	changed, err := db.ConsumeEmailChange(ctx, "ada@studio.test", t0, 5, match("h1"), staff.CodeFailure{}, nil)
	if err != nil || changed.ID != ada.ID {
		t.Fatalf("ConsumeEmailChange = %q, %v", changed.ID, err)
	}
	if u, _ := db.FindUserByID(ctx, ada.ID); u.Email != "lovelace@studio.test" {
		t.Errorf("address after the change = %q", u.Email)
	}
	change("h2", "l2", "bob@studio.test")
	if _, err := db.ConsumeEmailChange(ctx, "bob@studio.test", t0, 5, match("h2"), staff.CodeFailure{}, nil); !errors.Is(err, staff.ErrExists) {
		t.Errorf("someone else's address: err = %v, want ErrExists", err)
	}
	change("h3", "l3", "ada@studio.test")
	if id, err := db.ConsumeLink(ctx, "l3", staff.PurposeEmailChange, t0, 5, staff.AuditEntry{}, nil); err != nil || id.ID != ada.ID {
		t.Fatalf("ConsumeLink = %q %v", id.ID, err)
	}
	if u, _ := db.FindUserByID(ctx, ada.ID); u.Email != "ada@studio.test" {
		t.Errorf("address after the link = %q", u.Email)
	}
}

// TestCodeTriesRace: with many wrong tries of one code in flight at once
// (on PostgreSQL, each in its own transaction), at most maxTries of them
// are compared with the code: each reads the tries the one before wrote.
func TestCodeTriesRace(t *testing.T) {
	const maxTries = staff.MaxCodeTries
	ctx := context.Background()
	tests := []struct {
		name    string
		purpose string
		pkce    bool
		try     func(db *store.DB)
	}{
		{"sign-in code", staff.PurposeSignIn, false, func(db *store.DB) {
			_ = db.ConsumeCode(ctx, adaID, staff.PurposeSignIn, "wrong", t0, maxTries, staff.AuditEntry{})
		}},
		{"PKCE verifier", staff.PurposeSignIn, true, func(db *store.DB) {
			_, _, _ = db.ConsumePKCE(ctx, "link", t0, maxTries, func(string, string) bool { return false }, staff.AuditEntry{})
		}},
		{"e-mail change code", staff.PurposeEmailChange, false, func(db *store.DB) {
			_, _ = db.ConsumeEmailChange(ctx, "new@studio.test", t0, maxTries, func(string, string) bool { return false }, staff.CodeFailure{}, nil)
		}},
	}
	for _, engine := range storetest.Engines() {
		for _, tt := range tests {
			t.Run(engine.Name+"/"+tt.name, func(t *testing.T) {
				cfg := engine.NewConfig(t)
				db := storetest.MustOpen(t, cfg)
				mustAddUser(t, db, member(adaID, "ada@studio.test"))
				c := code(adaID, "hash", "link", t0)
				c.Purpose, c.NewEmail = tt.purpose, "new@studio.test"
				if tt.pkce {
					c.CodeChallenge, c.CodeChallengeMethod = "challenge", "s256"
				}
				if err := db.CreateCode(ctx, c, staff.AuditEntry{}); err != nil {
					t.Fatal(err)
				}
				together(inFlight, func() { tt.try(db) })
				var tries int
				if err := openRaw(t, cfg).QueryRow(`SELECT tries FROM auth_one_time_codes`).Scan(&tries); err != nil {
					t.Fatal(err)
				}
				if tries > maxTries {
					t.Errorf("%d tries of one code were compared, want at most %d", tries, maxTries)
				}
			})
		}
	}
}

// TestClaimEmailSendOnceAtATime: of many claims on one address at the same
// instant, from as many connections, exactly one succeeds (no two mails
// slip through the per-address limit together).
func TestClaimEmailSendOnceAtATime(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db := engine.New(t)
			const claims = 16
			for round := range 5 {
				at := t0.Add(time.Duration(round) * time.Hour)
				results := make(chan error, claims)
				start := make(chan struct{})
				for range claims {
					go func() {
						<-start
						_, err := db.ClaimEmailSend(context.Background(), "same-hash", at, time.Minute, nil, nil, staff.AuditEntry{})
						results <- err
					}()
				}
				close(start)
				granted := 0
				for range claims {
					switch err := <-results; {
					case err == nil:
						granted++
					case !errors.Is(err, staff.ErrEmailSendRateExceeded):
						t.Fatalf("claim: %v", err)
					}
				}
				if granted != 1 {
					t.Errorf("round %d: %d of %d simultaneous claims granted, want 1", round, granted, claims)
				}
			}
		})
	}
}

// testCodeSignIn: a code used with a staff.SignIn starts that session in the
// transaction that uses it (the user, the session, its refresh token and the
// audit entry of the sign-in); a refused code starts none.
func testCodeSignIn(t *testing.T, engine storetest.Engine) {
	db := engine.New(t)
	ctx := context.Background()
	ada := member("00000000-0000-4000-8000-000000000001", "ada@studio.test")
	mustAddUser(t, db, ada)
	signIn := func(id string) *staff.SignIn {
		return &staff.SignIn{
			Session:     staff.Session{ID: id, CreatedAt: t0, RefreshedAt: t0, AAL: staff.AAL1, AMR: []staff.AMREntry{{Method: "otp", Timestamp: t0.Unix()}}},
			RefreshHash: "refresh-" + id,
			Audit:       staff.AuditEntry{At: t0, Action: staff.ActionLogin, IP: "192.0.2.1", Detail: "otp"},
		}
	}
	byEmail := func(hash string, start *staff.SignIn) (staff.User, error) {
		return db.ConsumeCodeByEmail(ctx, ada.Email, staff.PurposeSignIn, t0, 5,
			func(_, stored string) bool { return stored == hash }, staff.CodeFailure{}, start)
	}
	if err := db.CreateCode(ctx, code(ada.ID, "right", "link1", t0), staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	const refused, started = "10000000-0000-4000-8000-000000000001", "10000000-0000-4000-8000-000000000002"
	if _, err := byEmail("wrong", signIn(refused)); !errors.Is(err, staff.ErrCodeInvalid) {
		t.Fatalf("wrong code: err = %v, want ErrCodeInvalid", err)
	}
	if _, _, err := db.FindSessionUser(ctx, refused); !errors.Is(err, staff.ErrSessionNotFound) {
		t.Errorf("a refused code started its session: err = %v", err)
	}
	u, err := byEmail("right", signIn(started))
	if err != nil {
		t.Fatalf("right code: %v", err)
	}
	if u.ID != ada.ID || u.Email != ada.Email || u.LastSignInAt == nil || !u.LastSignInAt.Equal(t0) || u.EmailConfirmedAt == nil {
		t.Errorf("user returned = %+v, want Ada as the sign-in left her", u)
	}
	sess, stored, err := db.FindSessionUser(ctx, started)
	if err != nil || sess.UserID != ada.ID || stored.LastSignInAt == nil || !stored.LastSignInAt.Equal(t0) {
		t.Fatalf("the session started = %+v, %+v, %v", sess, stored, err)
	}
	if _, _, err := db.RefreshSession(ctx, "refresh-"+started, "refresh-next", t0, time.Second, func(staff.Session) error { return nil }); err != nil {
		t.Errorf("the session's refresh token: %v", err)
	}
	log, err := db.ListAudit(ctx, t0.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var logins []staff.AuditEntry
	for _, e := range log {
		if e.Action == staff.ActionLogin {
			logins = append(logins, e)
		}
	}
	if len(logins) != 1 || logins[0].SessionID != started || logins[0].UserID != ada.ID || logins[0].Email != ada.Email {
		t.Errorf("logins logged = %+v, want one for the session started", logins)
	}
}
