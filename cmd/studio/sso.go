package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"

	"studio/internal/auth/federated"
	"studio/internal/staff"
	"studio/internal/store"
)

// The sso commands manage the SAML identity providers staff may sign in
// with (POST /auth/v1/sso, package auth).

var ssoAddCommand = command{
	name:    "sso add",
	summary: "add a SAML identity provider for staff single sign-on",
	description: "studio sso add --metadata-url URL | --metadata-file FILE --domain DOMAIN... [--name-id-format FORMAT]\n\n" +
		"Adds the SAML 2.0 identity provider (IdP) described by its metadata, and prints\n" +
		"its id. Staff sign in through it with signInWithSSO({ domain }) or\n" +
		"({ providerId: id }). Someone of a --domain who is not staff yet is added as\n" +
		"staff on their first sign-in; anyone else must be staff already.\n\n" +
		"Give the IdP this site's service provider metadata, SITE/auth/v1/sso/saml/metadata:\n" +
		"its entity id is that URL, its ACS (HTTP-POST) SITE/auth/v1/sso/saml/acs.\n" +
		"--metadata-url must be https, except on a loopback host.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		cfg := storeFlags(fs, env)
		var metadataURL, metadataFile, nameIDFormat string
		var domains []string
		fs.StringVar(&metadataURL, "metadata-url", "", "where the IdP publishes its metadata (https)")
		fs.StringVar(&metadataFile, "metadata-file", "", "a file with the IdP's metadata XML")
		fs.Func("domain", "an e-mail domain of the IdP's people (repeat, or separate with commas)", func(v string) error {
			domains = append(domains, splitList(v)...)
			return nil
		})
		fs.StringVar(&nameIDFormat, "name-id-format", "", "the NameID format to ask for: persistent (default), emailAddress, transient or unspecified")
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			if (metadataURL == "") == (metadataFile == "") {
				fmt.Fprintf(stderr, "%s: give one of --metadata-url and --metadata-file\n", fs.Name())
				return errUsage
			}
			if len(domains) == 0 {
				fmt.Fprintf(stderr, "%s: give at least one --domain\n", fs.Name())
				return errUsage
			}
			format, err := federated.NameIDFormat(nameIDFormat)
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
				return errUsage
			}
			metadata, err := readMetadata(ctx, metadataURL, metadataFile)
			if err != nil {
				return err
			}
			p, err := federated.NewSAMLProvider(uuid.NewString(), metadata, metadataURL, domains, format, time.Now().UTC())
			if err != nil {
				return err
			}
			return withNewStore(ctx, *cfg, func(db *store.DB) error {
				if err := checkSSOClash(ctx, db, p); err != nil {
					return err
				}
				audit := staff.AuditEntry{At: p.CreatedAt, Action: staff.ActionProviderAdded, IP: "cli", Detail: p.Name + " " + p.EntityID}
				if err := db.AddProvider(ctx, p, audit); errors.Is(err, staff.ErrExists) {
					return fmt.Errorf("the IdP %s or one of the domains %s was added meanwhile", p.EntityID, strings.Join(p.Domains, ", "))
				} else if err != nil {
					return err
				}
				fmt.Fprintln(stdout, p.ID)
				fmt.Fprintf(stderr, "added SAML provider %s (%s) for %s\n", p.ID, p.EntityID, strings.Join(p.Domains, ", "))
				return nil
			})
		}
	},
}

// readMetadata reads the IdP's metadata from url or file.
func readMetadata(ctx context.Context, url, file string) ([]byte, error) {
	if url != "" {
		return federated.FetchSAMLMetadata(ctx, url)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, federated.MaxSAMLMetadataBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > federated.MaxSAMLMetadataBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes: not an IdP's metadata", file, federated.MaxSAMLMetadataBytes)
	}
	return data, nil
}

// checkSSOClash says which provider already has p's entity id or one of its
// domains, as GoTrue's admin API does.
func checkSSOClash(ctx context.Context, db *store.DB, p staff.Provider) error {
	for _, d := range p.Domains {
		other, err := db.FindSSOProviderByDomain(ctx, d)
		if err == nil {
			return fmt.Errorf("SSO domain %q is already assigned to an SSO identity provider (%s)", d, other.ID)
		}
		if !errors.Is(err, staff.ErrNotFound) {
			return err
		}
	}
	providers, err := db.Providers(ctx)
	if err != nil {
		return err
	}
	for _, other := range providers {
		if other.EntityID == p.EntityID {
			return fmt.Errorf("the SAML IdP %s is already added (%s): remove it first to add it again", p.EntityID, other.ID)
		}
	}
	return nil
}

var ssoListCommand = listCommand(
	"sso list",
	"print the SAML identity providers",
	"Prints every SAML identity provider: id, entity id, domains, where its metadata\ncame from, when it was last fetched from there and when it was added.",
	func(ctx context.Context, db *store.DB) (table, error) {
		providers, err := db.Providers(ctx)
		type record struct {
			ID                string     `json:"id"`
			EntityID          string     `json:"entity_id"`
			Domains           []string   `json:"domains"`
			MetadataURL       string     `json:"metadata_url"`
			MetadataFetchedAt *time.Time `json:"metadata_fetched_at"`
			CreatedAt         time.Time  `json:"created_at"`
		}
		records := []record{}
		t := table{header: []string{"id", "entity_id", "domains", "metadata_url", "metadata_fetched_at", "created_at"}}
		for _, p := range providers {
			if p.Kind != staff.KindSAML {
				continue
			}
			var c federated.SAMLConfig
			_ = json.Unmarshal(p.Config, &c) // a config that does not read shows no URL
			var fetched *time.Time
			fetchedCell := ""
			if c.MetadataURL != "" {
				at := cmp.Or(c.FetchedAt, p.CreatedAt) // kept since metadata is fetched again; before, only when added
				fetched, fetchedCell = &at, timeCell(at)
			}
			records = append(records, record{p.ID, p.EntityID, p.Domains, c.MetadataURL, fetched, p.CreatedAt})
			t.rows = append(t.rows, []string{p.ID, p.EntityID, strings.Join(p.Domains, ","), c.MetadataURL, fetchedCell, timeCell(p.CreatedAt)})
		}
		t.records = records
		return t, err
	},
)

var ssoRemoveCommand = providerRemoveCommand(providerKind{
	kind: staff.KindSAML, command: "sso", key: "a provider id", noun: "SAML provider",
	label: func(p staff.Provider) string { return p.ID + " (" + p.EntityID + ")" },
},
	"remove a SAML identity provider",
	"studio sso remove ID\n\n"+
		"Removes the SAML identity provider (its id as \"studio sso list\" prints it):\n"+
		"nobody signs in through it any more, the identities it tied to staff are\n"+
		"removed (the staff stay), and its entity id and domains may be added again.",
)

// providerKind tells the provider commands of one kind apart: an OpenID
// Connect provider is named by its name, a SAML one by its id ("sso:" and
// the id, as the client's providerId may be written, works too).
type providerKind struct {
	kind, command string
	key           string // what the one argument is, for the usage error
	noun          string // how an error names a provider of the kind
	label         func(staff.Provider) string
}

// providerRemoveCommand removes one provider of a kind, the identities
// linked to it and its sign-ins under way; the store frees its name, entity
// id and domains.
func providerRemoveCommand(k providerKind, summary, description string) command {
	return command{
		name:        k.command + " remove",
		summary:     summary,
		description: description,
		setup: func(fs *flag.FlagSet, env func(string) string) action {
			cfg := storeFlags(fs, env)
			return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
				key, err := oneArg(fs, stderr, k.key)
				if err != nil {
					return err
				}
				key = strings.TrimPrefix(key, "sso:")
				return withStore(ctx, *cfg, func(db *store.DB) error {
					p, err := db.FindProvider(ctx, key)
					if errors.Is(err, staff.ErrNotFound) || (err == nil && (p.Kind != k.kind || (p.Name != key && p.ID != key))) {
						return fmt.Errorf("no %s %s (studio %s list prints them)", k.noun, key, k.command)
					}
					if err != nil {
						return err
					}
					audit := staff.AuditEntry{At: time.Now().UTC(), Action: staff.ActionProviderRemoved, IP: "cli", Detail: strings.TrimSpace(p.Name + " " + p.EntityID)}
					if _, err := db.RemoveProvider(ctx, p.ID, audit); err != nil {
						return err
					}
					fmt.Fprintf(stdout, "removed %s and the identities linked to it\n", strings.TrimSuffix(k.noun, " named")+" "+k.label(p))
					return nil
				})
			}
		},
	}
}

// oneArg returns the one positional argument (what names it in the usage
// error), parsing the flags after it.
func oneArg(fs *flag.FlagSet, stderr io.Writer, what string) (string, error) {
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "%s: want %s\n", fs.Name(), what)
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
	return arg, nil
}
