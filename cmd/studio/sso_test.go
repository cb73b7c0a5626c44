package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/xml"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crewjam/saml"
	"github.com/google/uuid"

	"studio/internal/staff"
	"studio/internal/store"
)

// idpMetadata is the metadata of a SAML IdP whose entity id is entityID.
func idpMetadata(t *testing.T, entityID string) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	metadataURL, _ := url.Parse(entityID)
	ssoURL, _ := url.Parse(entityID + "/sso")
	out, err := xml.Marshal((&saml.IdentityProvider{Key: key, Certificate: cert, MetadataURL: *metadataURL, SSOURL: *ssoURL}).Metadata())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSSOCommands: studio sso add (from a file or a URL), list and remove,
// and what add refuses.
func TestSSOCommands(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "okta.xml")
	if err := os.WriteFile(file, idpMetadata(t, "https://okta.test/app"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.xml")
	if err := os.WriteFile(other, idpMetadata(t, "https://other.test/app"), 0o600); err != nil {
		t.Fatal(err)
	}
	keycloak := idpMetadata(t, "https://keycloak.test/realms/studio")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(keycloak) }))
	defer srv.Close()

	var oktaID string
	steps := []struct {
		name     string
		args     func() []string
		wantCode int
		want     string // in stdout (exit 0) or stderr
	}{
		{"add from a file", func() []string {
			return []string{"sso", "add", "--metadata-file", file, "--domain", "Studio.test", "--domain", "lab.studio.test,studio.test", "--data", dir}
		}, 0, "\n"},
		{"add the same IdP again", func() []string {
			return []string{"sso", "add", "--metadata-file", file, "--domain", "elsewhere.test", "--data", dir}
		}, 1, "the SAML IdP https://okta.test/app is already added"},
		{"add a domain another IdP has", func() []string {
			return []string{"sso", "add", "--metadata-file", other, "--domain", "studio.test", "--data", dir}
		}, 1, `SSO domain "studio.test" is already assigned`},
		{"add from a loopback URL", func() []string {
			return []string{"sso", "add", "--metadata-url", srv.URL + "/metadata", "--domain", "keycloak.test", "--name-id-format", "emailAddress", "--data", dir}
		}, 0, "\n"},
		{"add from an http URL", func() []string {
			return []string{"sso", "add", "--metadata-url", "http://idp.example/metadata", "--domain", "example.test", "--data", dir}
		}, 1, "must be https"},
		{"add from both", func() []string {
			return []string{"sso", "add", "--metadata-url", srv.URL, "--metadata-file", file, "--domain", "example.test", "--data", dir}
		}, 2, "give one of --metadata-url and --metadata-file"},
		{"add without a domain", func() []string { return []string{"sso", "add", "--metadata-file", other, "--data", dir} }, 2, "at least one --domain"},
		{"add a bad domain", func() []string {
			return []string{"sso", "add", "--metadata-file", other, "--domain", "ada@other.test", "--data", dir}
		}, 1, "not an e-mail domain"},
		{"add with a bad NameID format", func() []string {
			return []string{"sso", "add", "--metadata-file", other, "--domain", "other.test", "--name-id-format", "kerberos", "--data", dir}
		}, 2, "name id format"},
		{"list", func() []string { return []string{"sso", "list", "--data", dir} }, 0, "lab.studio.test,studio.test"},
		{"remove", func() []string { return []string{"sso", "remove", oktaID, "--data", dir} }, 0, "removed SAML provider " + oktaID},
		{"remove twice", func() []string { return []string{"sso", "remove", "sso:" + oktaID, "--data", dir} }, 1, "no SAML provider"},
		{"add again once removed", func() []string {
			return []string{"sso", "add", "--metadata-file", file, "--domain", "studio.test", "--data", dir}
		}, 0, "\n"},
	}
	for _, s := range steps {
		code, stdout, stderr := runCLI(t, nil, s.args()...)
		out := stdout
		if s.wantCode != 0 {
			out = stderr
		}
		if code != s.wantCode || !strings.Contains(out, s.want) {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", s.name, code, stdout, stderr, s.wantCode, s.want)
		}
		if s.name == "add from a file" {
			oktaID = strings.TrimSpace(stdout)
			if uuid.Validate(oktaID) != nil {
				t.Fatalf("add printed %q, want the provider's UUID", stdout)
			}
		}
	}

	_, stdout, _ := runCLI(t, nil, "sso", "list", "--data", dir, "--format", "json")
	var listed []struct {
		ID          string     `json:"id"`
		EntityID    string     `json:"entity_id"`
		Domains     []string   `json:"domains"`
		MetadataURL string     `json:"metadata_url"`
		FetchedAt   *time.Time `json:"metadata_fetched_at"`
		CreatedAt   time.Time  `json:"created_at"`
	}
	if err := json.Unmarshal([]byte(stdout), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != 2 || listed[0].EntityID != "https://keycloak.test/realms/studio" || listed[0].MetadataURL != srv.URL+"/metadata" ||
		listed[0].FetchedAt == nil || listed[0].FetchedAt.Sub(listed[0].CreatedAt).Abs() > time.Millisecond || listed[1].FetchedAt != nil ||
		listed[1].EntityID != "https://okta.test/app" || strings.Join(listed[1].Domains, ",") != "studio.test" {
		t.Errorf("sso list = %s", stdout)
	}
}

// TestStaffLink: staff link ties a person at a provider to a member of
// staff, mails them when the servers mail, audits it, and is refused for
// an unknown provider or an identity another member of staff has.
func TestStaffLink(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "okta.xml")
	if err := os.WriteFile(file, idpMetadata(t, "https://okta.test/app"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"ada@studio.test", "grace@studio.test"} {
		if code, _, stderr := runCLI(t, nil, "staff", "add", who, "--data", dir); code != 0 {
			t.Fatal(stderr)
		}
	}
	code, stdout, stderr := runCLI(t, nil, "sso", "add", "--metadata-file", file, "--domain", "partner.test", "--data", dir)
	if code != 0 {
		t.Fatal(stderr)
	}
	id := strings.TrimSpace(stdout)
	mailing := func(name string) string {
		return map[string]string{"STUDIO_SMTP_URL": "smtp://127.0.0.1:25", "STUDIO_NOTIFY_TO": "team@studio.test"}[name]
	}
	steps := []struct {
		name     string
		env      func(string) string
		args     []string
		wantCode int
		want     string
	}{
		{"link", mailing, []string{"staff", "link", "ada@studio.test", "--provider", "sso:" + id, "--subject", "ada-at-okta", "--data", dir}, 0,
			"linked ada-at-okta at https://okta.test/app to ada@studio.test"},
		{"link it to another", nil, []string{"staff", "link", "grace@studio.test", "--provider", id, "--subject", "ada-at-okta", "--data", dir}, 1,
			"ada-at-okta at https://okta.test/app is already another member of staff's identity"},
		{"no such provider", nil, []string{"staff", "link", "ada@studio.test", "--provider", "nope", "--subject", "x", "--data", dir}, 1, `no identity provider "nope"`},
		{"no subject", nil, []string{"staff", "link", "ada@studio.test", "--provider", id, "--data", dir}, 1, "--provider and --subject are required"},
		{"not staff", nil, []string{"staff", "link", "eve@studio.test", "--provider", id, "--subject", "x", "--data", dir}, 1, "eve@studio.test is not staff"},
	}
	for _, s := range steps {
		code, stdout, stderr := runCLI(t, s.env, s.args...)
		out := stdout
		if s.wantCode != 0 {
			out = stderr
		}
		if code != s.wantCode || !strings.Contains(out, s.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", s.name, code, stdout, stderr, s.wantCode, s.want)
		}
	}
	db, err := store.Open(context.Background(), store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	identity, err := db.FindIdentity(context.Background(), staff.SSOName(id), "ada-at-okta")
	if err != nil {
		t.Fatalf("the link was not stored: %v", err)
	}
	ada, _ := db.FindUserByEmail(context.Background(), "ada@studio.test")
	if identity.UserID != ada.ID {
		t.Errorf("linked to %s, want Ada", identity.UserID)
	}
	mails, err := db.ClaimEmails(context.Background(), time.Now().Add(time.Minute), time.Minute, 10)
	if err != nil || len(mails) != 1 || mails[0].Email.To[0] != "ada@studio.test" || mails[0].Email.From != "team@studio.test" ||
		mails[0].Email.Subject != "A sign-in method was added to your account" {
		t.Errorf("mails = %+v, %v; want one to Ada", mails, err)
	}
	_, stdout, _ = runCLI(t, nil, "audit", "list", "--data", dir, "--format", "csv")
	if strings.Count(stdout, "identity_linked") != 1 {
		t.Errorf("audit list:\n%s", stdout)
	}
}
