package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"studio/internal/auth/federated"
	"studio/internal/secretkey"
	"studio/internal/staff"
	"studio/internal/store"
)

// The oauth commands manage the OpenID Connect providers staff may sign in
// with (package auth/federated, oidc.go).

// stdin is what --client-secret-file - reads (a variable for the tests).
var stdin io.Reader = os.Stdin

// clientSecretEnv is the environment variable the client secret may come
// from, so that it is in no command line.
const clientSecretEnv = "STUDIO_OAUTH_CLIENT_SECRET"

// maxSecretFile bounds what --client-secret-file reads.
const maxSecretFile = 64 << 10

var oauthAddCommand = command{
	name:    "oauth add",
	summary: "let staff sign in with an OpenID Connect provider",
	description: "studio oauth add NAME --issuer URL --client-id ID --client-secret-file FILE|- [--scopes \"a b\"] [--allow-domain DOMAIN]...\n\n" +
		"Adds an OpenID Connect provider (Google Workspace, Microsoft Entra, Okta, Keycloak, Dex, …)\n" +
		"found by discovery at ISSUER/.well-known/openid-configuration, which is read now, so that\n" +
		"a wrong issuer fails here. NAME (a short lower-case word) is the provider= of the client\n" +
		"(signInWithOAuth({provider: NAME})). Register SITE/auth/v1/callback as the redirect URI at\n" +
		"the provider. The client secret comes from --client-secret-file (- for stdin), the\n" +
		"environment (" + clientSecretEnv + ") or --client-secret, and is stored sealed with the\n" +
		"secret key. Staff sign in when the provider verified their address; with --allow-domain,\n" +
		"people of that domain who are not staff yet are added on their first sign-in.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		secrets := secretKeyFlags(fs, env)
		var spec federated.OIDCProviderSpec
		var secretFile, scopes string
		fs.StringVar(&spec.Issuer, "issuer", "", "the provider's issuer URL (https; http only on a loopback host)")
		fs.StringVar(&spec.ClientID, "client-id", "", "the client id registered at the provider")
		fs.StringVar(&spec.ClientSecret, "client-secret", "", "the client secret (better: --client-secret-file or env "+clientSecretEnv+", which keep it out of the shell history)")
		fs.StringVar(&secretFile, "client-secret-file", "", "a file holding the client secret; - reads it from stdin")
		fs.StringVar(&scopes, "scopes", "", "scopes to ask for besides openid, email and profile (space- or comma-separated)")
		fs.Func("allow-domain", "an e-mail domain whose people are added as staff on their first sign-in (repeatable)", func(v string) error {
			spec.Domains = append(spec.Domains, splitWords(v)...)
			return nil
		})
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			name, err := oneArg(fs, stderr, "a provider name")
			if err != nil {
				return err
			}
			spec.Name, spec.Scopes = name, splitWords(scopes)
			if spec.ClientSecret, err = clientSecret(spec.ClientSecret, secretFile, env); err != nil {
				return err
			}
			return withSecretKey(ctx, *cfg, *secrets, true, stderr, func(db *store.DB, key *secretkey.SecretKey) error {
				now := time.Now().UTC()
				p, err := federated.NewOIDCProvider(ctx, spec, key, now)
				if err != nil {
					return err
				}
				err = db.AddProvider(ctx, p, staff.AuditEntry{At: now, Action: staff.ActionProviderAdded, IP: "cli", Detail: p.Name + " " + spec.Issuer})
				if errors.Is(err, staff.ErrExists) {
					return fmt.Errorf("there is a provider named %s already (studio oauth list)", p.Name)
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "added provider %s (%s)\n", p.Name, p.ID)
				return nil
			})
		}
	},
}

var oauthListCommand = listCommand(
	"oauth list",
	"print the OpenID Connect providers staff may sign in with",
	"Prints every OpenID Connect provider: name, issuer, client id, scopes, allowed domains, id and\n"+
		"when added. The client secret is never printed.",
	func(ctx context.Context, db *store.DB) (table, error) {
		providers, err := db.Providers(ctx)
		type record struct {
			Name         string    `json:"name"`
			Issuer       string    `json:"issuer"`
			ClientID     string    `json:"client_id"`
			Scopes       []string  `json:"scopes"`
			AllowDomains []string  `json:"allow_domains"`
			ID           string    `json:"id"`
			CreatedAt    time.Time `json:"created_at"`
		}
		records := []record{}
		t := table{header: []string{"name", "issuer", "client_id", "scopes", "allow_domains", "id", "created_at"}}
		for _, p := range providers {
			if p.Kind != staff.KindOIDC {
				continue
			}
			c, cerr := federated.OIDCSettings(p)
			if cerr != nil {
				return t, cerr
			}
			rec := record{p.Name, c.Issuer, c.ClientID, append([]string{}, c.Scopes...), append([]string{}, p.Domains...), p.ID, p.CreatedAt}
			records = append(records, rec)
			t.rows = append(t.rows, []string{rec.Name, rec.Issuer, rec.ClientID, strings.Join(rec.Scopes, " "),
				strings.Join(rec.AllowDomains, " "), rec.ID, timeCell(rec.CreatedAt)})
		}
		t.records = records
		return t, err
	},
)

var oauthRemoveCommand = providerRemoveCommand(providerKind{
	kind: staff.KindOIDC, command: "oauth", key: "a provider name", noun: "OpenID Connect provider named",
	label: func(p staff.Provider) string { return p.Name },
},
	"remove an OpenID Connect provider and the identities linked to it",
	"studio oauth remove NAME\n\n"+
		"Removes the provider, the identities linked to it and its sign-ins under way. Staff keep\n"+
		"their e-mail sign-in and their sessions (studio staff remove ends a person's sessions).",
)

// clientSecret is the client secret: read from file (- for stdin) when
// set, else given (--client-secret), else the environment.
func clientSecret(given, file string, env func(string) string) (string, error) {
	var secret string
	switch {
	case file == "-":
		b, err := io.ReadAll(io.LimitReader(stdin, maxSecretFile))
		if err != nil {
			return "", fmt.Errorf("read the client secret from stdin: %w", err)
		}
		secret = string(b)
	case file != "":
		f, err := os.Open(file)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, maxSecretFile))
		if err != nil {
			return "", err
		}
		secret = string(b)
	case given != "":
		secret = given
	default:
		secret = env(clientSecretEnv)
	}
	secret = strings.TrimSpace(secret)
	if secret == "" {
		return "", fmt.Errorf("the client secret is missing: give --client-secret-file FILE (- for stdin), env %s or --client-secret", clientSecretEnv)
	}
	return secret, nil
}

// splitWords splits a flag's value at spaces and commas.
func splitWords(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}
