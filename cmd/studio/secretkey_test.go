package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"studio/internal/auth"
	"studio/internal/store"
)

// TestSecretKeySources: where the secret key comes from, in the order
// README.md gives: --secret-key, --mfa-key (its former name), secret.key in
// --data, mfa.key in --data (made by earlier releases), a new secret.key.
func TestSecretKeySources(t *testing.T) {
	const (
		keyA = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		keyB = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=" // keyA in base64
		keyC = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100"
		keyD = "2f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100"
	)
	idOf := func(hex string) string {
		k, err := auth.ParseSecretKey(hex)
		if err != nil {
			t.Fatal(err)
		}
		return k.ID()
	}
	for _, tt := range []struct {
		name       string
		flags      secretKeyConfig
		files      map[string]string // in --data
		create     bool
		wantID     string // "" with wantErr, or when a new key is made
		wantErr    string
		wantMadeIn string // a file made in --data
	}{
		{name: "--secret-key", flags: secretKeyConfig{key: keyA}, files: map[string]string{"secret.key": keyC}, create: true, wantID: idOf(keyA)},
		{name: "--mfa-key alone", flags: secretKeyConfig{legacy: keyA}, files: map[string]string{"secret.key": keyC}, create: true, wantID: idOf(keyA)},
		{name: "both flags, the same key", flags: secretKeyConfig{key: keyA, legacy: keyB}, create: true, wantID: idOf(keyA)},
		{name: "both flags, different keys", flags: secretKeyConfig{key: keyA, legacy: keyC}, create: true, wantErr: "differ"},
		{name: "bad --secret-key", flags: secretKeyConfig{key: "short"}, create: true, wantErr: "--secret-key"},
		{name: "bad --mfa-key", flags: secretKeyConfig{legacy: "short"}, create: true, wantErr: "--mfa-key"},
		{name: "secret.key before mfa.key", files: map[string]string{"secret.key": keyC, "mfa.key": keyD}, create: true, wantID: idOf(keyC)},
		{name: "mfa.key of an earlier release", files: map[string]string{"mfa.key": keyD}, create: true, wantID: idOf(keyD)},
		{name: "a damaged key file", files: map[string]string{"secret.key": "short"}, create: true, wantErr: "secret.key"},
		{name: "none: made", create: true, wantMadeIn: "secret.key"},
		{name: "none, and not to be made", wantErr: "no secret.key or mfa.key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			k, err := tt.flags.load(store.Config{DataDir: dir}, nil, tt.create)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantID != "" && k.ID() != tt.wantID {
				t.Errorf("key %s, want %s", k.ID(), tt.wantID)
			}
			if tt.wantMadeIn == "" {
				if entries, _ := os.ReadDir(dir); len(entries) != len(tt.files) {
					t.Errorf("--data holds %d files, want the %d given", len(entries), len(tt.files))
				}
				return
			}
			info, err := os.Stat(filepath.Join(dir, tt.wantMadeIn))
			if err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("made %s: %v, mode %v", tt.wantMadeIn, err, info.Mode())
			}
			again, err := tt.flags.load(store.Config{DataDir: dir}, nil, false)
			if err != nil || again.ID() != k.ID() {
				t.Errorf("the made key read again: %v, %v", again, err)
			}
		})
	}
}

// TestSecretKeyMadeOnce: servers that start at once on one new --data all
// get the one key made there, whole.
func TestSecretKeyMadeOnce(t *testing.T) {
	for range 20 {
		dir := t.TempDir()
		ids := make(chan string, 8)
		var wg sync.WaitGroup
		for range cap(ids) {
			wg.Go(func() {
				k, _, _, err := auth.LoadOrCreateSecretKey(dir)
				if err != nil {
					t.Error(err)
					ids <- ""
					return
				}
				ids <- k.ID()
			})
		}
		wg.Wait()
		close(ids)
		first := <-ids
		for id := range ids {
			if id != first {
				t.Fatalf("keys %s and %s made in one --data", first, id)
			}
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("--data holds %d files, want secret.key alone", len(entries))
		}
	}
}
