package federated

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/xml"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"studio/internal/staff"
	"sync"
	"time"

	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"
)

// SAML 2.0 single sign-on: this service is the service provider (SP) of
// the identity providers (IdPs) an operator added with "studio sso add".
// This file holds the SP's key and metadata; samlsettings.go reads a
// provider's settings, sso.go starts a sign-in (POST /sso) and samlacs.go
// ends it at the assertion consumer service. crewjam/saml does every XML
// and signature check.

// The SP's endpoints, relative to the service's prefix. The metadata's URL
// is also the SP's entity id, as GoTrue's.
const (
	SAMLMetadataPath = "/sso/saml/metadata"
	SAMLACSPath      = "/sso/saml/acs"
)

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
func (h *Handlers) samlKey(ctx context.Context) (*rsa.PrivateKey, *x509.Certificate, error) {
	h.spKey.mu.Lock()
	defer h.spKey.mu.Unlock()
	if h.spKey.key != nil {
		return h.spKey.key, h.spKey.cert, nil
	}
	candidate, err := h.newSAMLKeyPair()
	if err != nil {
		return nil, nil, err
	}
	stored, err := h.store.SAMLKey(ctx, candidate)
	if err != nil {
		return nil, nil, err
	}
	der, err := h.cfg.SecretKey.Open(stored.PrivateKey, samlKeyLabel)
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
	h.spKey.key, h.spKey.cert = key, cert
	return key, cert, nil
}

// samlCertificateValidity is how long the SP's self-signed certificate is
// valid. IdPs mostly use it only as a container of the public key.
const samlCertificateValidity = 10 * 365 * 24 * time.Hour

// newSAMLKeyPair makes a new SP key (sealed) and its certificate.
func (h *Handlers) newSAMLKeyPair() (staff.SAMLKeyPair, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return staff.SAMLKeyPair{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return staff.SAMLKeyPair{}, err
	}
	now := h.cfg.Now()
	name := "studio"
	if u, err := url.Parse(h.cfg.SiteOrigin); err == nil && u.Hostname() != "" {
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
	sealed, err := h.cfg.SecretKey.Seal(der, samlKeyLabel)
	if err != nil {
		return staff.SAMLKeyPair{}, err
	}
	return staff.SAMLKeyPair{PrivateKey: sealed, Certificate: cert, CreatedAt: now}, nil
}

// samlEntityID is the SP's entity id (the URL of its metadata), and
// samlACSURL its assertion consumer service: what an IdP is told.
func (h *Handlers) samlEntityID() string { return h.cfg.Issuer + SAMLMetadataPath }
func (h *Handlers) samlACSURL() string   { return h.cfg.Issuer + SAMLACSPath }

// serviceProvider returns the SP for the IdP idp (nil for the metadata),
// asking for nameIDFormat, whose clock is now.
func (h *Handlers) serviceProvider(ctx context.Context, idp *saml.EntityDescriptor, nameIDFormat string, now time.Time) (*saml.ServiceProvider, error) {
	key, cert, err := h.samlKey(ctx)
	if err != nil {
		return nil, err
	}
	entityID, err := url.Parse(h.samlEntityID())
	if err != nil {
		return nil, err
	}
	acs, err := url.Parse(h.samlACSURL())
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
func (h *Handlers) handleSAMLMetadata(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	sp, err := h.serviceProvider(ctx, nil, "", h.cfg.Now())
	if err != nil {
		h.failed(w, r, "SAML key", err)
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
		h.failed(w, r, "SAML metadata", err)
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("Cache-Control", "public, max-age=600")
	if download {
		w.Header().Set("Content-Disposition", `attachment; filename="metadata.xml"`)
	}
	_, _ = w.Write(body)
}
