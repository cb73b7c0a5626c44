package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"studio/internal/staff"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/crewjam/saml"
	"github.com/crewjam/saml/samlsp"
	dsig "github.com/russellhaering/goxmldsig"
)

// SAML 2.0 single sign-on: this service is the service provider (SP) of
// the identity providers (IdPs) an operator added with "studio sso add".
// This file holds the providers' settings, the SP's key and metadata;
// sso.go starts a sign-in (POST /sso) and samlacs.go ends it at the
// assertion consumer service. crewjam/saml does every XML and signature
// check.

// The SP's endpoints, relative to Prefix. The metadata's URL is also the
// SP's entity id, as GoTrue's.
const (
	SAMLMetadataPath = "/sso/saml/metadata"
	SAMLACSPath      = "/sso/saml/acs"
)

// SAMLConfig is the Config of a SAML provider. Nothing in it is secret.
type SAMLConfig struct {
	MetadataXML string `json:"metadata_xml"`
	// MetadataURL is where MetadataXML was fetched from, "" for a file.
	MetadataURL string `json:"metadata_url,omitempty"`
	// FetchedAt is when MetadataXML was fetched from MetadataURL (zero for
	// a file, and for a provider added before it was kept: its CreatedAt).
	FetchedAt time.Time `json:"fetched_at,omitzero"`
	// NameIDFormat is the NameID format the AuthnRequest asks for; ""
	// asks for persistent, as GoTrue does.
	NameIDFormat string `json:"name_id_format,omitempty"`
}

// Limits of a provider's metadata.
const (
	MaxSAMLMetadataBytes = 1 << 20
	samlMetadataTimeout  = 10 * time.Second
)

// nameIDFormats are the NameID formats an operator may ask for, by their
// short names.
var nameIDFormats = map[string]saml.NameIDFormat{
	"persistent":   saml.PersistentNameIDFormat,
	"emailAddress": saml.EmailAddressNameIDFormat,
	"transient":    saml.TransientNameIDFormat,
	"unspecified":  saml.UnspecifiedNameIDFormat,
}

// NameIDFormat returns the NameID format named by its short name
// (persistent, emailAddress, transient, unspecified) or its URN; "" for "".
func NameIDFormat(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	for short, urn := range nameIDFormats {
		if name == short || name == string(urn) {
			return string(urn), nil
		}
	}
	return "", fmt.Errorf("name id format %q: want persistent, emailAddress, transient or unspecified", name)
}

// NewSAMLProvider returns the SAML provider of the IdP whose metadata is
// metadataXML (fetched from metadataURL, "" for a file), for the e-mail
// domains (SSO domains, and whose people it may add as staff), asking for
// nameIDFormat (NameIDFormat's, "" for persistent).
func NewSAMLProvider(id string, metadataXML []byte, metadataURL string, domains []string, nameIDFormat string, now time.Time) (staff.Provider, error) {
	idp, err := ParseSAMLMetadata(metadataXML)
	if err != nil {
		return staff.Provider{}, err
	}
	var clean []string
	for _, d := range domains {
		d, err := NormalizeDomain(d)
		if err != nil {
			return staff.Provider{}, err
		}
		if !slices.Contains(clean, d) {
			clean = append(clean, d)
		}
	}
	if len(clean) == 0 {
		return staff.Provider{}, errors.New("a SAML provider needs at least one domain")
	}
	settings := SAMLConfig{MetadataXML: string(metadataXML), MetadataURL: metadataURL, NameIDFormat: nameIDFormat}
	if metadataURL != "" {
		settings.FetchedAt = now
	}
	config, err := json.Marshal(settings)
	if err != nil {
		return staff.Provider{}, err
	}
	return staff.Provider{ID: id, Kind: staff.KindSAML, Name: staff.SSOName(id), EntityID: idp.EntityID, Domains: clean, Config: config, CreatedAt: now}, nil
}

// NormalizeDomain returns the e-mail domain d in lower case, or an error
// when it is not a domain name (an address, a URL, an IP address).
func NormalizeDomain(d string) (string, error) {
	d = strings.ToLower(strings.TrimSpace(d))
	if !strings.Contains(d, ".") || net.ParseIP(d) != nil || !validHostname(d) {
		return "", fmt.Errorf("%q is not an e-mail domain", d)
	}
	return d, nil
}

// ParseSAMLMetadata reads an IdP's metadata, as GoTrue checks it: one
// entity with one IDPSSODescriptor, and here also an HTTP-Redirect
// SingleSignOnService and a signing certificate, without which no sign-in
// could work.
func ParseSAMLMetadata(raw []byte) (*saml.EntityDescriptor, error) {
	if !utf8.Valid(raw) {
		return nil, errors.New("SAML metadata is not UTF-8")
	}
	idp, err := samlsp.ParseMetadata(raw)
	if err != nil {
		return nil, fmt.Errorf("SAML metadata: %w", err)
	}
	switch {
	case idp.EntityID == "":
		return nil, errors.New("SAML metadata has no entityID")
	case len(idp.IDPSSODescriptors) != 1:
		return nil, fmt.Errorf("SAML metadata has %d IDPSSODescriptors, want one", len(idp.IDPSSODescriptors))
	}
	sp := saml.ServiceProvider{IDPMetadata: idp}
	if sp.GetSSOBindingLocation(saml.HTTPRedirectBinding) == "" {
		return nil, errors.New("SAML metadata has no SingleSignOnService with the HTTP-Redirect binding")
	}
	if !hasSigningCertificate(idp.IDPSSODescriptors[0].KeyDescriptors) {
		return nil, errors.New("SAML metadata has no signing certificate")
	}
	return idp, nil
}

// hasSigningCertificate reports whether one of keys is a certificate that
// may sign (its use is signing, or not given).
func hasSigningCertificate(keys []saml.KeyDescriptor) bool {
	for _, k := range keys {
		if k.Use != "" && k.Use != "signing" {
			continue
		}
		for _, c := range k.KeyInfo.X509Data.X509Certificates {
			der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(c.Data), ""))
			if err != nil {
				continue
			}
			if _, err := x509.ParseCertificate(der); err == nil {
				return true
			}
		}
	}
	return false
}

// CheckMetadataURL parses the URL of an IdP's metadata: https, or http on
// a loopback host (a test, a local IdP).
func CheckMetadataURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("metadata URL %q is not a URL", raw)
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname())) {
		return nil, fmt.Errorf("metadata URL %q: must be https (http only on a loopback host)", raw)
	}
	return u, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// FetchSAMLMetadata gets an IdP's metadata from rawURL (CheckMetadataURL's
// rules; a redirect, at most three, stays on https: providerClient),
// within samlMetadataTimeout and at most MaxSAMLMetadataBytes.
func FetchSAMLMetadata(ctx context.Context, rawURL string) ([]byte, error) {
	u, err := CheckMetadataURL(rawURL)
	if err != nil {
		return nil, err
	}
	client := providerClient(u.String())
	client.Timeout = samlMetadataTimeout
	client.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("too many redirects")
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/samlmetadata+xml, application/xml, text/xml")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch SAML metadata: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch SAML metadata from %s: HTTP %d", u, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxSAMLMetadataBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch SAML metadata: %w", err)
	}
	if len(body) > MaxSAMLMetadataBytes {
		return nil, fmt.Errorf("SAML metadata at %s is larger than %d bytes", u, MaxSAMLMetadataBytes)
	}
	return body, nil
}

// samlProvider returns the settings and parsed metadata of the SAML
// provider p.
func samlProvider(p staff.Provider) (SAMLConfig, *saml.EntityDescriptor, error) {
	var c SAMLConfig
	if err := json.Unmarshal(p.Config, &c); err != nil {
		return c, nil, fmt.Errorf("provider %s: %w", p.Name, err)
	}
	idp, err := ParseSAMLMetadata([]byte(c.MetadataXML))
	if err != nil {
		return c, nil, fmt.Errorf("provider %s: %w", p.Name, err)
	}
	return c, idp, nil
}

// spKey is the SP's key and certificate, read from the store on first use.
type spKey struct {
	mu   sync.Mutex
	key  *rsa.PrivateKey
	cert *x509.Certificate
}

// samlKeyLabel binds the sealed SP key to what it is.
const samlKeyLabel = "saml sp key"

// samlKey returns the SP's key and certificate: the store's, made (an
// RSA-2048 key, a self-signed certificate) and stored the first time any
// server needs it. The private key is kept sealed with the secret key.
func (s *Service) samlKey(ctx context.Context) (*rsa.PrivateKey, *x509.Certificate, error) {
	s.spKey.mu.Lock()
	defer s.spKey.mu.Unlock()
	if s.spKey.key != nil {
		return s.spKey.key, s.spKey.cert, nil
	}
	candidate, err := s.newSAMLKeyPair()
	if err != nil {
		return nil, nil, err
	}
	stored, err := s.store.SAMLKey(ctx, candidate)
	if err != nil {
		return nil, nil, err
	}
	der, err := s.cfg.MFAKey.Open(stored.PrivateKey, samlKeyLabel)
	if err != nil {
		return nil, nil, fmt.Errorf("open the SAML key: %w", err)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, nil, fmt.Errorf("SAML key: %w", err)
	}
	key, ok := parsed.(*rsa.PrivateKey)
	if !ok {
		return nil, nil, errors.New("SAML key is not an RSA key")
	}
	cert, err := x509.ParseCertificate(stored.Certificate)
	if err != nil {
		return nil, nil, fmt.Errorf("SAML certificate: %w", err)
	}
	s.spKey.key, s.spKey.cert = key, cert
	return key, cert, nil
}

// samlCertificateValidity is how long the SP's self-signed certificate is
// valid. IdPs mostly use it only as a container of the public key.
const samlCertificateValidity = 10 * 365 * 24 * time.Hour

// newSAMLKeyPair makes a new SP key (sealed) and its certificate.
func (s *Service) newSAMLKeyPair() (staff.SAMLKeyPair, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return staff.SAMLKeyPair{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return staff.SAMLKeyPair{}, err
	}
	now := s.cfg.Now()
	name := "studio"
	if u, err := url.Parse(s.cfg.SiteOrigin); err == nil && u.Hostname() != "" {
		name = u.Hostname()
	}
	template := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: name},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(samlCertificateValidity),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment, BasicConstraintsValid: true,
	}
	cert, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return staff.SAMLKeyPair{}, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return staff.SAMLKeyPair{}, err
	}
	sealed, err := s.cfg.MFAKey.Seal(der, samlKeyLabel)
	if err != nil {
		return staff.SAMLKeyPair{}, err
	}
	return staff.SAMLKeyPair{PrivateKey: sealed, Certificate: cert, CreatedAt: now}, nil
}

// SAMLEntityID is the SP's entity id (the URL of its metadata), and
// SAMLACSURL its assertion consumer service: what an IdP is told.
func (s *Service) SAMLEntityID() string { return s.issuer + SAMLMetadataPath }
func (s *Service) SAMLACSURL() string   { return s.issuer + SAMLACSPath }

// serviceProvider returns the SP for the IdP idp (nil for the metadata),
// asking for nameIDFormat, whose clock is now.
func (s *Service) serviceProvider(ctx context.Context, idp *saml.EntityDescriptor, nameIDFormat string, now time.Time) (*saml.ServiceProvider, error) {
	key, cert, err := s.samlKey(ctx)
	if err != nil {
		return nil, err
	}
	entityID, err := url.Parse(s.SAMLEntityID())
	if err != nil {
		return nil, err
	}
	acs, err := url.Parse(s.SAMLACSURL())
	if err != nil {
		return nil, err
	}
	format := saml.PersistentNameIDFormat
	if nameIDFormat != "" {
		format = saml.NameIDFormat(nameIDFormat)
	}
	return &saml.ServiceProvider{
		EntityID: entityID.String(), MetadataURL: *entityID, AcsURL: *acs,
		Key: key, Certificate: cert, SignatureMethod: dsig.RSASHA256SignatureMethod,
		IDPMetadata: idp, AuthnNameIDFormat: format, SendUnspecifiedNameIDFormat: true,
		AssertionConsumerServiceBindings: []string{saml.HTTPPostBinding},
		// Unsolicited responses are refused: every sign-in starts at POST
		// /sso, so its response answers a request of ours.
		AllowIDPInitiated: false,
		// Nothing an IdP signs with SHA-1 is trusted; an encrypted
		// assertion in CBC mode only inside a signed response.
		RejectSHA1Signatures: true, RequireSignedResponseForCBC: true,
		Clock: dsig.NewFakeClockAt(now),
	}, nil
}

// samlMetadataDownloadValidity is how long the SP metadata says it is valid
// when downloaded (GoTrue's five years, for an IdP that is given a file);
// served, it says two days (crewjam's).
const samlMetadataDownloadValidity = 5 * 365 * 24 * time.Hour

// handleSAMLMetadata handles GET /sso/saml/metadata: the SP's metadata, for
// the IdP (?download=true: as a file, valid for years).
func (s *Service) handleSAMLMetadata(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	sp, err := s.serviceProvider(ctx, nil, "", s.cfg.Now())
	if err != nil {
		s.failed(w, r, "SAML key", err)
		return
	}
	download := r.URL.Query().Get("download") == "true"
	if download {
		sp.MetadataValidDuration = samlMetadataDownloadValidity
	}
	md := sp.Metadata()
	for i := range md.SPSSODescriptors {
		d := &md.SPSSODescriptors[i]
		// As GoTrue: the requests are signed, but an IdP need not check it.
		d.AuthnRequestsSigned = nil
		d.NameIDFormats = []saml.NameIDFormat{saml.EmailAddressNameIDFormat, saml.PersistentNameIDFormat}
		// The key signs; IdPs are not invited to encrypt to it.
		d.KeyDescriptors = slices.DeleteFunc(d.KeyDescriptors, func(k saml.KeyDescriptor) bool { return k.Use != "signing" })
	}
	body, err := xml.Marshal(md)
	if err != nil {
		s.failed(w, r, "SAML metadata", err)
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("Cache-Control", "public, max-age=600")
	if download {
		w.Header().Set("Content-Disposition", `attachment; filename="metadata.xml"`)
	}
	_, _ = w.Write(body)
}
