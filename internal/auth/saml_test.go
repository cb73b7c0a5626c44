package auth_test

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	"github.com/google/uuid"
	dsig "github.com/russellhaering/goxmldsig"

	"studio/internal/auth"
	"studio/internal/auth/federated"
	"studio/internal/secretkey"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// The SAML tests play the IdP with crewjam/saml's types and goxmldsig:
// each response is built and signed here, so that each can be wrong in one
// way only. web/auth-tests/sso.test.mjs signs in through a real IdP.

const (
	idpEntityID = "https://idp.test/metadata"
	idpSSOURL   = "https://idp.test/sso"
	spEntityID  = origin + "/auth/v1/sso/saml/metadata"
	spACSURL    = origin + "/auth/v1/sso/saml/acs"
	adminURL    = origin + "/admin/signed-in"
)

// testIdP is an identity provider's signing key and certificate.
type testIdP struct {
	key  *rsa.PrivateKey
	cert *x509.Certificate
}

var (
	idpOnce            sync.Once
	theIdP, anotherIdP testIdP
	idpErr             error
)

// idps returns the IdP the tests add, and another one (a key it does not
// trust), made once: RSA keys are slow to make.
func idps(t testing.TB) (testIdP, testIdP) {
	t.Helper()
	idpOnce.Do(func() {
		theIdP, idpErr = newTestIdP()
		if idpErr == nil {
			anotherIdP, idpErr = newTestIdP()
		}
	})
	if idpErr != nil {
		t.Fatal(idpErr)
	}
	return theIdP, anotherIdP
}

func newTestIdP() (testIdP, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return testIdP{}, err
	}
	template := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp.test"},
		NotBefore: time.Now().Add(-24 * time.Hour), NotAfter: time.Now().Add(365 * 24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return testIdP{}, err
	}
	cert, err := x509.ParseCertificate(der)
	return testIdP{key, cert}, err
}

// metadata is the IdP's metadata, as crewjam's IdentityProvider publishes it.
func (idp testIdP) metadata(t testing.TB) []byte { return idp.metadataAt(t, time.Now()) }

// metadataAt is the IdP's metadata as published at now: valid for two days
// from then, to be cached for one.
func (idp testIdP) metadataAt(t testing.TB, now time.Time) []byte {
	t.Helper()
	metadataURL, _ := url.Parse(idpEntityID)
	ssoURL, _ := url.Parse(idpSSOURL)
	md := (&saml.IdentityProvider{Key: idp.key, Certificate: idp.cert, MetadataURL: *metadataURL, SSOURL: *ssoURL}).Metadata()
	md.ValidUntil, md.CacheDuration = now.Add(saml.DefaultValidDuration), saml.DefaultCacheDuration
	out, err := xml.Marshal(md)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (idp testIdP) signingContext(t testing.TB, method string) *dsig.SigningContext {
	t.Helper()
	ctx := dsig.NewDefaultSigningContext(dsig.TLSCertKeyStore(tls.Certificate{
		Certificate: [][]byte{idp.cert.Raw}, PrivateKey: idp.key, Leaf: idp.cert}))
	ctx.Canonicalizer = dsig.MakeC14N10ExclusiveCanonicalizerWithPrefixList("")
	if err := ctx.SetSignatureMethod(method); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// samlResponse is what the IdP answers; the tests change it before it is
// signed and encoded.
type samlResponse struct {
	response  saml.Response
	assertion saml.Assertion
	// signAssertion, signResponse say what the IdP signs; signer is its key.
	signAssertion, signResponse bool
	signer                      testIdP
	signatureMethod             string
	// tamper, when set, changes the XML after it was signed.
	tamper func(xml string) string
}

// newSAMLResponse is the IdP's answer to the AuthnRequest requestID at
// now: Ada (a persistent NameID and an email attribute), for this SP's
// ACS, the assertion signed.
func newSAMLResponse(idp testIdP, requestID string, now time.Time) *samlResponse {
	issuer := saml.Issuer{Format: "urn:oasis:names:tc:SAML:2.0:nameid-format:entity", Value: idpEntityID}
	return &samlResponse{
		signer: idp, signAssertion: true, signatureMethod: dsig.RSASHA256SignatureMethod,
		response: saml.Response{ID: "id-" + uuid.NewString(), InResponseTo: requestID, Version: "2.0", IssueInstant: now,
			Destination: spACSURL, Issuer: &issuer, Status: saml.Status{StatusCode: saml.StatusCode{Value: saml.StatusSuccess}}},
		assertion: saml.Assertion{ID: "id-" + uuid.NewString(), IssueInstant: now, Version: "2.0", Issuer: issuer,
			Subject: &saml.Subject{
				NameID: &saml.NameID{Format: string(saml.PersistentNameIDFormat), Value: "ada-at-the-idp"},
				SubjectConfirmations: []saml.SubjectConfirmation{{Method: "urn:oasis:names:tc:SAML:2.0:cm:bearer",
					SubjectConfirmationData: &saml.SubjectConfirmationData{InResponseTo: requestID, Recipient: spACSURL,
						NotOnOrAfter: now.Add(5 * time.Minute)}}},
			},
			Conditions: &saml.Conditions{NotBefore: now.Add(-time.Minute), NotOnOrAfter: now.Add(5 * time.Minute),
				AudienceRestrictions: []saml.AudienceRestriction{{Audience: saml.Audience{Value: spEntityID}}}},
			AuthnStatements: []saml.AuthnStatement{{AuthnInstant: now, SessionIndex: "session-1", AuthnContext: saml.AuthnContext{
				AuthnContextClassRef: &saml.AuthnContextClassRef{Value: "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"}}}},
			AttributeStatements: []saml.AttributeStatement{{Attributes: []saml.Attribute{
				{Name: "email", Values: []saml.AttributeValue{{Type: "xs:string", Value: adaEmail}}},
				{Name: "displayName", Values: []saml.AttributeValue{{Type: "xs:string", Value: "Ada Lovelace"}}},
			}}},
		},
	}
}

// setEmail makes the assertion's email attribute address.
func (r *samlResponse) setEmail(address string) {
	r.assertion.AttributeStatements[0].Attributes[0].Values[0].Value = address
}

// encode signs the response as asked and returns it as posted (base64).
func (r *samlResponse) encode(t testing.TB) string {
	t.Helper()
	assertion := r.assertion
	assertionEl := assertion.Element()
	if r.signAssertion {
		signed, err := r.signer.signingContext(t, r.signatureMethod).SignEnveloped(assertionEl)
		if err != nil {
			t.Fatal(err)
		}
		assertion.Signature = signed.ChildElements()[len(signed.ChildElements())-1]
		assertionEl = assertion.Element()
	}
	response := r.response
	responseEl := response.Element()
	responseEl.AddChild(assertionEl)
	if r.signResponse {
		signed, err := r.signer.signingContext(t, r.signatureMethod).SignEnveloped(responseEl)
		if err != nil {
			t.Fatal(err)
		}
		response.Signature = signed.ChildElements()[len(signed.ChildElements())-1]
		responseEl = response.Element()
		responseEl.AddChild(assertionEl)
	}
	doc := etree.NewDocument()
	doc.SetRoot(responseEl)
	out, err := doc.WriteToString()
	if err != nil {
		t.Fatal(err)
	}
	if r.tamper != nil {
		tampered := r.tamper(out)
		if tampered == out {
			t.Fatal("tamper changed nothing")
		}
		out = tampered
	}
	return base64.StdEncoding.EncodeToString([]byte(out))
}

// samlFixture is the service with the test IdP added as an SSO provider
// for studio.test.
type samlFixture struct {
	*fixture
	idp, other testIdP
	provider   staff.Provider
}

func newSAMLFixture(t testing.TB, engine storetest.Engine) *samlFixture {
	t.Helper()
	f := newFixture(t, engine)
	idp, other := idps(t)
	p, err := federated.NewSAMLProvider(uuid.NewString(), idp.metadata(t), "", []string{"Studio.test"}, "", f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.AddProvider(context.Background(), p, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	return &samlFixture{fixture: f, idp: idp, other: other, provider: p}
}

// startSSO asks POST /sso for a sign-in with body and returns the
// AuthnRequest it sends the IdP, its RelayState and the IdP URL.
func (f *samlFixture) startSSO(body string) (saml.AuthnRequest, string, *url.URL) {
	f.t.Helper()
	r := f.do("POST", "/auth/v1/sso", body)
	if r.status != http.StatusOK {
		f.t.Fatalf("POST /sso = %d %s", r.status, r.raw)
	}
	to, err := url.Parse(r.body["url"].(string))
	if err != nil {
		f.t.Fatal(err)
	}
	deflated, err := base64.StdEncoding.DecodeString(to.Query().Get("SAMLRequest"))
	if err != nil {
		f.t.Fatal(err)
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(deflated)))
	if err != nil {
		f.t.Fatal(err)
	}
	var req saml.AuthnRequest
	if err := xml.Unmarshal(raw, &req); err != nil {
		f.t.Fatal(err)
	}
	return req, to.Query().Get("RelayState"), to
}

// startImplicit starts an implicit sign-in back to /admin/.
func (f *samlFixture) startImplicit() (requestID, relayState string) {
	req, relayState, _ := f.startSSO(`{"domain":"studio.test","redirect_to":"` + adminURL + `","skip_http_redirect":true}`)
	return req.ID, relayState
}

// acs posts the form of a SAML response to the ACS and returns where it
// sends the browser.
func (f *samlFixture) acs(form url.Values) *url.URL {
	f.t.Helper()
	r := httptest.NewRequest("POST", "/auth/v1/sso/saml/acs", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	f.svc.ServeHTTP(w, r)
	if w.Code != http.StatusFound {
		f.t.Fatalf("ACS = %d %s", w.Code, w.Body)
	}
	to, err := url.Parse(w.Header().Get("Location"))
	if err != nil {
		f.t.Fatal(err)
	}
	return to
}

// post posts the encoded response with relayState to the ACS.
func (f *samlFixture) post(encoded, relayState string) *url.URL {
	f.t.Helper()
	return f.acs(url.Values{"SAMLResponse": {encoded}, "RelayState": {relayState}})
}

// fragment returns the parameters in the fragment of to, read as a
// browser does (URLSearchParams of location.hash, as sent).
func fragment(t testing.TB, to *url.URL) url.Values {
	t.Helper()
	v, err := url.ParseQuery(to.EscapedFragment())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// refusedAt checks that to is a refusal at want (implicit: in the
// fragment) with code, and no token.
func refusedAt(t testing.TB, to *url.URL, want, code string) {
	t.Helper()
	params := fragment(t, to)
	if base := strings.SplitN(to.String(), "#", 2)[0]; base != want {
		t.Errorf("sent to %s, want %s", base, want)
	}
	if params.Get("error_code") != code || params.Get("error") == "" || params.Get("error_description") == "" {
		t.Errorf("error params = %v, want error_code %s", params, code)
	}
	if params.Has("access_token") || params.Has("refresh_token") || to.Query().Has("code") {
		t.Errorf("a refusal carries a token: %s", to)
	}
}

// TestSAMLSignIn: a response the IdP signed for the flow signs in, with
// tokens (implicit) or an auth code (PKCE), and ties the identity
// sso:<provider id> to the member of staff.
func TestSAMLSignIn(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			t.Run("implicit", func(t *testing.T) { testSAMLImplicit(t, engine) })
			t.Run("pkce", func(t *testing.T) { testSAMLPKCE(t, engine) })
		})
	}
}

func testSAMLImplicit(t *testing.T, engine storetest.Engine) {
	f := newSAMLFixture(t, engine)
	req, relayState, to := f.startSSO(`{"domain":"studio.test","redirect_to":"` + adminURL + `","skip_http_redirect":true}`)
	if got := to.Scheme + "://" + to.Host + to.Path; got != idpSSOURL {
		t.Errorf("IdP URL = %s, want its HTTP-Redirect SingleSignOnService %s", got, idpSSOURL)
	}
	if to.Query().Get("Signature") == "" || to.Query().Get("SigAlg") != dsig.RSASHA256SignatureMethod {
		t.Errorf("the AuthnRequest is not signed: %s", to.RawQuery)
	}
	if req.Destination != idpSSOURL || req.AssertionConsumerServiceURL != spACSURL || req.ProtocolBinding != saml.HTTPPostBinding ||
		req.Issuer == nil || req.Issuer.Value != spEntityID || req.NameIDPolicy == nil || *req.NameIDPolicy.Format != string(saml.PersistentNameIDFormat) {
		t.Errorf("AuthnRequest = %+v", req)
	}

	to = f.post(newSAMLResponse(f.idp, req.ID, f.clock.Now()).encode(t), relayState)
	params := fragment(t, to)
	if !strings.HasPrefix(to.String(), adminURL+"#") || params.Get("access_token") == "" || params.Get("refresh_token") == "" || params.Has("error") {
		t.Fatalf("sent to %s", to)
	}
	user := f.do("GET", "/auth/v1/user", "", "Authorization", "Bearer "+params.Get("access_token"))
	if user.status != 200 || user.body["id"] != f.ada.ID || user.body["email"] != adaEmail {
		t.Fatalf("GET /user = %d %s", user.status, user.raw)
	}
	found := false
	for _, id := range user.body["identities"].([]any) {
		id := id.(map[string]any)
		data, _ := id["identity_data"].(map[string]any)
		if id["provider"] == f.provider.Name && data["sub"] == "ada-at-the-idp" && data["iss"] == idpEntityID {
			found = true
		}
	}
	if !found {
		t.Errorf("identities = %v, want one of %s", user.body["identities"], f.provider.Name)
	}
}

func testSAMLPKCE(t *testing.T, engine storetest.Engine) {
	f := newSAMLFixture(t, engine)
	verifier := strings.Repeat("v", 43)
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	req, relayState, _ := f.startSSO(`{"provider_id":"` + f.provider.ID + `","redirect_to":"` + adminURL +
		`","skip_http_redirect":true,"code_challenge":"` + challenge + `","code_challenge_method":"s256"}`)

	to := f.post(newSAMLResponse(f.idp, req.ID, f.clock.Now()).encode(t), relayState)
	code := to.Query().Get("code")
	if !strings.HasPrefix(to.String(), adminURL+"?") || code == "" || to.Fragment != "" {
		t.Fatalf("sent to %s", to)
	}
	session := f.do("POST", "/auth/v1/token?grant_type=pkce", `{"auth_code":"`+code+`","code_verifier":"`+verifier+`"}`)
	if session.status != 200 || session.body["access_token"] == nil {
		t.Fatalf("pkce = %d %s", session.status, session.raw)
	}
	claims := jwtClaims(t, session.body["access_token"].(string))
	amr, _ := claims["amr"].([]any)
	if claims["sub"] != f.ada.ID || len(amr) != 1 || amr[0].(map[string]any)["method"] != federated.MethodSSO {
		t.Errorf("claims = %v, want Ada's with amr %s", claims, federated.MethodSSO)
	}
}

// jwtClaims returns the claims of token, unverified.
func jwtClaims(t testing.TB, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatal(err)
	}
	return claims
}

// TestSAMLAccepted: the forms of a good response an IdP may send: the
// response signed instead of the assertion, the address as the NameID, a
// person of the provider's domain who is not staff yet (added).
func TestSAMLAccepted(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *samlResponse)
		email  string
	}{
		{"response signed, not the assertion", func(r *samlResponse) { r.signAssertion, r.signResponse = false, true }, adaEmail},
		{"both signed", func(r *samlResponse) { r.signResponse = true }, adaEmail},
		{"address as the NameID", func(r *samlResponse) {
			r.assertion.AttributeStatements = nil
			r.assertion.Subject.NameID = &saml.NameID{Format: string(saml.EmailAddressNameIDFormat), Value: "Ada@Studio.test"}
		}, adaEmail},
		{"mail attribute", func(r *samlResponse) { r.assertion.AttributeStatements[0].Attributes[0].Name = "mail" }, adaEmail},
		{"urn attribute", func(r *samlResponse) {
			r.assertion.AttributeStatements[0].Attributes[0].Name = "urn:oid:0.9.2342.19200300.100.1.3"
		}, adaEmail},
		{"new staff of the domain", func(r *samlResponse) {
			r.setEmail("grace@studio.test")
			r.assertion.Subject.NameID.Value = "grace-at-the-idp"
		}, "grace@studio.test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSAMLFixture(t, sqlite())
			requestID, relayState := f.startImplicit()
			r := newSAMLResponse(f.idp, requestID, f.clock.Now())
			tt.change(r)
			to := f.post(r.encode(t), relayState)
			token := fragment(t, to).Get("access_token")
			if token == "" {
				t.Fatalf("sent to %s; audit %q", to, f.lastLoginFailure())
			}
			if email := jwtClaims(t, token)["email"]; email != tt.email {
				t.Errorf("signed in %v, want %s", email, tt.email)
			}
		})
	}
}

// TestSAMLRefused: a response that is not the IdP's, not for this SP, not
// for this sign-in or not valid now signs nobody in: the browser goes back
// to redirect_to with the error and no token, and the audit log says why.
func TestSAMLRefused(t *testing.T) {
	tests := []struct {
		name string
		// change makes the response wrong; late is how long it takes to
		// come back.
		change func(f *samlFixture, r *samlResponse, now time.Time)
		late   time.Duration
		reason string
	}{
		{name: "tampered", reason: "signature", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.tamper = func(x string) string { return strings.Replace(x, adaEmail, "mallory@studio.test", 1) }
		}},
		{name: "tampered signed response", reason: "signature", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.signAssertion, r.signResponse = false, true
			r.tamper = func(x string) string { return strings.Replace(x, adaEmail, "mallory@studio.test", 1) }
		}},
		{name: "unsigned", reason: "unsigned", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.signAssertion = false
		}},
		{name: "signed by another key", reason: "signature", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.signer = f.other
		}},
		{name: "signed with SHA-1", reason: "signature", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.signatureMethod = dsig.RSASHA1SignatureMethod
		}},
		{name: "expired", reason: "expired", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.assertion.Conditions.NotOnOrAfter = now.Add(-saml.MaxClockSkew - time.Second)
		}},
		{name: "confirmation expired", reason: "expired", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.NotOnOrAfter = now.Add(-saml.MaxClockSkew - time.Second)
		}},
		{name: "issued too long ago", reason: "expired", late: saml.MaxIssueDelay + time.Second},
		{name: "not yet valid", reason: "not yet valid", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.assertion.Conditions.NotBefore = now.Add(saml.MaxClockSkew + time.Minute)
		}},
		{name: "wrong audience", reason: "audience", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.assertion.Conditions.AudienceRestrictions[0].Audience.Value = "https://elsewhere.test/sp"
		}},
		{name: "wrong recipient", reason: "destination", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.Recipient = "https://elsewhere.test/acs"
		}},
		{name: "wrong destination", reason: "destination", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.signResponse = true
			r.response.Destination = "https://elsewhere.test/acs"
		}},
		{name: "wrong InResponseTo", reason: "in response to", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.response.InResponseTo = "id-another-request"
			r.assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.InResponseTo = "id-another-request"
		}},
		{name: "wrong issuer", reason: "issuer", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.response.Issuer.Value = "https://elsewhere.test/idp"
			r.assertion.Issuer.Value = "https://elsewhere.test/idp"
		}},
		{name: "person not staff, domain not allowed", reason: "not vouched: the address is outside the provider's domains", change: func(f *samlFixture, r *samlResponse, now time.Time) {
			r.setEmail("eve@elsewhere.test")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSAMLFixture(t, sqlite())
			requestID, relayState := f.startImplicit()
			r := newSAMLResponse(f.idp, requestID, f.clock.Now())
			if tt.change != nil {
				tt.change(f, r, f.clock.Now())
			}
			encoded := r.encode(t)
			f.clock.Advance(tt.late)
			to := f.post(encoded, relayState)
			code := "validation_failed"
			if strings.HasPrefix(tt.reason, "not staff: ") {
				code = strings.TrimPrefix(tt.reason, "not staff: ")
			} else if strings.HasPrefix(tt.reason, "not vouched: ") {
				code = "signup_disabled"
			}
			refusedAt(t, to, adminURL, code)
			if got, want := f.lastLoginFailure(), "saml "+f.provider.Name+": "+tt.reason; got != want {
				t.Errorf("audit login_failed %q, want %q", got, want)
			}
			for _, email := range []string{"mallory@studio.test", "eve@elsewhere.test"} {
				if _, err := f.db.FindUserByEmail(context.Background(), email); err == nil {
					t.Errorf("%s was added", email)
				}
			}
		})
	}
}

// TestSAMLReplay: an assertion is used once, even inside another response
// the IdP signed for another sign-in; a response posted again finds its
// flow used.
func TestSAMLReplay(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newSAMLFixture(t, engine)
			firstID, firstRelay := f.startImplicit()
			secondID, secondRelay := f.startImplicit()
			first := newSAMLResponse(f.idp, firstID, f.clock.Now())
			encoded := first.encode(t)
			if to := f.post(encoded, firstRelay); !fragment(t, to).Has("access_token") {
				t.Fatalf("first use sent to %s", to)
			}

			refusedAt(t, f.post(encoded, firstRelay), origin+auth.ConsolePath, "saml_relay_state_not_found")

			second := newSAMLResponse(f.idp, secondID, f.clock.Now())
			second.assertion.ID = first.assertion.ID
			refusedAt(t, f.post(second.encode(t), secondRelay), adminURL, "validation_failed")
			if got, want := f.lastLoginFailure(), "saml "+f.provider.Name+": replayed"; got != want {
				t.Errorf("audit login_failed %q, want %q", got, want)
			}
		})
	}
}

// TestSAMLUnsolicited: a response without a sign-in of ours (IdP-initiated,
// or a RelayState that is no flow) goes back to the console with the error.
func TestSAMLUnsolicited(t *testing.T) {
	f := newSAMLFixture(t, sqlite())
	encoded := newSAMLResponse(f.idp, "", f.clock.Now()).encode(t)
	t.Run("the message reads", func(t *testing.T) {
		to := f.acs(url.Values{"SAMLResponse": {encoded}})
		want := "Sign-ins started at the identity provider are not accepted: start with Single sign-on on the sign-in page"
		if got := fragment(t, to).Get("error_description"); got != want {
			t.Errorf("error_description = %q, want %q (sent %s)", got, want, to)
		}
	})
	tests := []struct {
		name string
		form url.Values
		code string
	}{
		{"IdP-initiated", url.Values{"SAMLResponse": {encoded}}, "validation_failed"},
		{"IdP-initiated with a URL", url.Values{"SAMLResponse": {encoded}, "RelayState": {adminURL}}, "saml_relay_state_not_found"},
		{"unknown RelayState", url.Values{"SAMLResponse": {encoded}, "RelayState": {"made-up"}}, "saml_relay_state_not_found"},
		{"no response", url.Values{"RelayState": {"made-up"}}, "validation_failed"},
		{"artifact", url.Values{"SAMLart": {"AAQAAA"}, "SAMLResponse": {encoded}, "RelayState": {"made-up"}}, "validation_failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refusedAt(t, f.acs(tt.form), origin+auth.ConsolePath, tt.code)
		})
	}
}

// TestSSOStart: POST /sso's validation, statuses and codes, as GoTrue's.
func TestSSOStart(t *testing.T) {
	f := newSAMLFixture(t, sqlite())
	tests := []struct {
		name, body string
		status     int
		code, msg  string
	}{
		{"domain", `{"domain":"studio.test","skip_http_redirect":true}`, 200, "", ""},
		{"domain in capitals", `{"domain":"STUDIO.test","skip_http_redirect":true}`, 200, "", ""},
		{"provider id", `{"provider_id":"` + f.provider.ID + `","skip_http_redirect":true}`, 200, "", ""},
		{"redirect", `{"domain":"studio.test"}`, 303, "", ""},
		{"both", `{"domain":"studio.test","provider_id":"` + f.provider.ID + `"}`, 400, "validation_failed", "Only one of provider_id or domain supported"},
		{"neither", `{}`, 400, "validation_failed", "A provider_id or domain needs to be provided"},
		{"unknown domain", `{"domain":"elsewhere.test"}`, 404, "sso_provider_not_found", "No SSO provider assigned for this domain"},
		{"unknown provider", `{"provider_id":"` + uuid.NewString() + `"}`, 404, "sso_provider_not_found", "No such SSO provider"},
		{"provider id not a UUID", `{"provider_id":"` + f.provider.Name + `"}`, 400, "bad_json", ""},
		{"half a PKCE", `{"domain":"studio.test","code_challenge":"abc"}`, 400, "validation_failed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.do("POST", "/auth/v1/sso", tt.body)
			if r.status != tt.status || (tt.code != "" && r.body["error_code"] != tt.code) || (tt.msg != "" && r.body["msg"] != tt.msg) {
				t.Fatalf("POST /sso = %d %s, want %d %s %q", r.status, r.raw, tt.status, tt.code, tt.msg)
			}
			switch tt.status {
			case 200:
				if u, _ := r.body["url"].(string); !strings.HasPrefix(u, idpSSOURL+"?SAMLRequest=") {
					t.Errorf("url = %q", u)
				}
			case 303:
				if u := r.header.Get("Location"); !strings.HasPrefix(u, idpSSOURL+"?SAMLRequest=") {
					t.Errorf("Location = %q", u)
				}
			}
		})
	}
}

// TestSAMLMetadata: the SP metadata names the entity id and HTTP-POST ACS
// an IdP is given, with the store's certificate, made once; its key is kept
// sealed with the secret key.
func TestSAMLMetadata(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			f := newFixture(t, engine)
			metadata := func(query string) (saml.EntityDescriptor, response) {
				r := f.do("GET", "/auth/v1/sso/saml/metadata"+query, "")
				var md saml.EntityDescriptor
				if r.status != 200 || r.header.Get("Content-Type") != "application/xml" {
					t.Fatalf("metadata = %d %s", r.status, r.header)
				}
				if err := xml.Unmarshal([]byte(r.raw), &md); err != nil {
					t.Fatal(err)
				}
				return md, r
			}
			md, _ := metadata("")
			if md.EntityID != spEntityID || len(md.SPSSODescriptors) != 1 {
				t.Fatalf("metadata = %+v", md)
			}
			sp := md.SPSSODescriptors[0]
			if len(sp.AssertionConsumerServices) != 1 || sp.AssertionConsumerServices[0].Location != spACSURL ||
				sp.AssertionConsumerServices[0].Binding != saml.HTTPPostBinding {
				t.Errorf("ACS = %+v", sp.AssertionConsumerServices)
			}
			if len(sp.KeyDescriptors) != 1 || sp.KeyDescriptors[0].Use != "signing" {
				t.Fatalf("keys = %+v", sp.KeyDescriptors)
			}
			published := sp.KeyDescriptors[0].KeyInfo.X509Data.X509Certificates[0].Data

			stored, err := f.db.SAMLKey(context.Background(), staff.SAMLKeyPair{PrivateKey: []byte{}, Certificate: []byte{}}) // made: returns it
			if err != nil {
				t.Fatal(err)
			}
			if published != base64.StdEncoding.EncodeToString(stored.Certificate) {
				t.Error("the metadata's certificate is not the store's")
			}
			if !secretkey.IsSealed(stored.PrivateKey) {
				t.Error("the SAML key is stored in clear")
			}
			der, err := f.secrets.Open(stored.PrivateKey, "saml sp key")
			if err != nil {
				t.Fatal(err)
			}
			key, err := x509.ParsePKCS8PrivateKey(der)
			cert, certErr := x509.ParseCertificate(stored.Certificate)
			if err != nil || certErr != nil || !key.(*rsa.PrivateKey).PublicKey.Equal(cert.PublicKey) || key.(*rsa.PrivateKey).N.BitLen() != 2048 {
				t.Errorf("key %v, certificate %v: not an RSA-2048 pair", err, certErr)
			}

			// Another server on the same store publishes the same key.
			other := auth.New(f.db, auth.Config{SiteOrigin: origin, MFAKey: f.secrets})
			w := httptest.NewRecorder()
			other.ServeHTTP(w, httptest.NewRequest("GET", "/auth/v1/sso/saml/metadata", nil))
			if !strings.Contains(w.Body.String(), published) {
				t.Error("another server publishes another certificate")
			}

			downloaded, r := metadata("?download=true")
			if r.header.Get("Content-Disposition") != `attachment; filename="metadata.xml"` ||
				downloaded.ValidUntil.Before(f.clock.Now().AddDate(4, 0, 0)) {
				t.Errorf("download: %s, valid until %s", r.header.Get("Content-Disposition"), downloaded.ValidUntil)
			}
		})
	}
}

// TestSAMLProviderSettings: what "studio sso add" accepts.
func TestSAMLProviderSettings(t *testing.T) {
	idp, _ := idps(t)
	good := idp.metadata(t)
	noRedirect := bytes.ReplaceAll(good, []byte(saml.HTTPRedirectBinding), []byte(saml.HTTPArtifactBinding))
	noCert := bytes.ReplaceAll(good, []byte(base64.StdEncoding.EncodeToString(idp.cert.Raw)), []byte("AAAA"))
	tests := []struct {
		name     string
		metadata []byte
		domains  []string
		format   string
		wantErr  string
	}{
		{"good", good, []string{" Studio.TEST ", "studio.test", "lab.studio.test"}, "", ""},
		{"no domain", good, nil, "", "at least one domain"},
		{"an address", good, []string{"ada@studio.test"}, "", "not an e-mail domain"},
		{"an IP", good, []string{"127.0.0.1"}, "", "not an e-mail domain"},
		{"a URL", good, []string{"https://studio.test"}, "", "not an e-mail domain"},
		{"no HTTP-Redirect SSO", noRedirect, []string{"studio.test"}, "", "HTTP-Redirect"},
		{"no certificate", noCert, []string{"studio.test"}, "", "signing certificate"},
		{"not metadata", []byte("<html></html>"), []string{"studio.test"}, "", "SAML metadata"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := federated.NewSAMLProvider("b6f3c1e2-0000-4000-8000-000000000001", tt.metadata, "", tt.domains, tt.format, time.Now())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.EntityID != idpEntityID || p.Name != "sso:b6f3c1e2-0000-4000-8000-000000000001" || p.Kind != staff.KindSAML ||
				strings.Join(p.Domains, ",") != "studio.test,lab.studio.test" {
				t.Errorf("provider = %+v", p)
			}
		})
	}
	for in, want := range map[string]string{"": "", "persistent": string(saml.PersistentNameIDFormat),
		"emailAddress": string(saml.EmailAddressNameIDFormat), string(saml.TransientNameIDFormat): string(saml.TransientNameIDFormat)} {
		if got, err := federated.NameIDFormat(in); got != want || err != nil {
			t.Errorf("NameIDFormat(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := federated.NameIDFormat("kerberos"); err == nil {
		t.Error("NameIDFormat(kerberos) is accepted")
	}
}

// TestFetchSAMLMetadata: the metadata URL is https but on a loopback host,
// and its answer is bounded.
func TestFetchSAMLMetadata(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://idp.example/metadata": true, "http://127.0.0.1:8080/metadata": true, "http://localhost/m": true,
		"http://[::1]:9/m": true, "http://idp.example/metadata": false, "ftp://idp.example/m": false, "/metadata": false,
		"http://10.0.0.1/m": false,
	} {
		if _, err := federated.CheckMetadataURL(raw); (err == nil) != ok {
			t.Errorf("CheckMetadataURL(%s) = %v", raw, err)
		}
	}
	idp, _ := idps(t)
	good := idp.metadata(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/metadata", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(good) })
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(bytes.Repeat([]byte(" "), federated.MaxSAMLMetadataBytes+1))
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://idp.example/metadata", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	got, err := federated.FetchSAMLMetadata(context.Background(), srv.URL+"/metadata")
	if err != nil || !bytes.Equal(got, good) {
		t.Errorf("fetch = %v", err)
	}
	for _, path := range []string{"/huge", "/away", "/missing"} {
		if _, err := federated.FetchSAMLMetadata(context.Background(), srv.URL+path); err == nil {
			t.Errorf("fetch %s succeeded", path)
		}
	}
}
