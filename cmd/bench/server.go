package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// store is where a measured server keeps its data: the args and environment
// that choose it, and a function that removes it.
type store struct {
	args    []string
	env     []string
	cleanup func()
}

// newStore makes a fresh store of engine: SQLite in a temporary --data
// directory, or a new database on the PostgreSQL of
// STUDIO_TEST_DATABASE_URL.
func newStore(engine string) (store, error) {
	st := store{env: os.Environ(), cleanup: func() {}}
	switch engine {
	case "sqlite":
		dir, err := os.MkdirTemp("", "studio-bench-")
		if err != nil {
			return st, err
		}
		st.args = []string{"--data", dir}
		st.cleanup = func() { os.RemoveAll(dir) }
	case "postgres":
		dbURL, drop, err := newDatabase()
		if err != nil {
			return st, err
		}
		dir, err := os.MkdirTemp("", "studio-bench-") // for the secret key file
		if err != nil {
			drop()
			return st, err
		}
		st.args = []string{"--data", dir}
		st.env = append(st.env, "DATABASE_URL="+dbURL)
		st.cleanup = func() { drop(); os.RemoveAll(dir) }
	default:
		return st, fmt.Errorf("unknown engine %q", engine)
	}
	return st, nil
}

// cli runs a studio command on the store and returns its output.
func (st store) cli(binary string, args ...string) (string, error) {
	cmd := exec.Command(binary, append(args, st.args...)...)
	cmd.Env = st.env
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", fmt.Errorf("studio %v: %w: %s", args, err, exit.Stderr)
		}
		return "", err
	}
	return string(out), nil
}

// start runs the server and returns its base URL and a function that stops it.
func start(binary string, args, env []string) (string, func(), error) {
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		var entry struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "listening" {
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return "http://" + entry.Addr, stop, nil
		}
	}
	stop()
	return "", nil, errors.New("the server did not start")
}

// newDatabase makes a new database on the server of STUDIO_TEST_DATABASE_URL.
func newDatabase() (string, func(), error) {
	admin := os.Getenv("STUDIO_TEST_DATABASE_URL")
	if admin == "" {
		return "", nil, errors.New("STUDIO_TEST_DATABASE_URL is not set: run under scripts/with-postgres (make bench does)")
	}
	db, err := sql.Open("pgx", admin)
	if err != nil {
		return "", nil, err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "studio_bench_" + hex.EncodeToString(b)
	if _, err := db.ExecContext(context.Background(), "CREATE DATABASE "+name); err != nil {
		db.Close()
		return "", nil, err
	}
	u, err := url.Parse(admin)
	if err != nil {
		db.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		_, _ = db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		db.Close()
	}
	return u.String(), drop, nil
}
