package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"studio/internal/auth"
	"studio/internal/contact"
	"studio/internal/notify"
	"studio/internal/ratelimit"
	"studio/internal/realtime"
	"studio/internal/rest"
	"studio/internal/server"
	"studio/internal/signup"
	"studio/internal/site"
	"studio/internal/store"
	"studio/web"
)

var serveCommand = command{
	name:    "serve",
	summary: "serve the web site and the backend functions",
	description: "Serves the web site and the backend functions until SIGINT or SIGTERM,\n" +
		"then stops accepting connections, finishes in-flight requests (at most 10 s) and exits 0.\n" +
		"Submissions are stored in SQLite in --data, or in PostgreSQL when DATABASE_URL is set.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		var cfg serveConfig
		envString(fs, &cfg.addr, "addr", "STUDIO_ADDR", ":8080", "address to listen on, host:port", env)
		cfg.store = storeFlags(fs, env)
		envString(fs, &cfg.siteURL, "site-url", "STUDIO_SITE_URL", site.BuildOrigin, "public origin of the site, for canonical links, share tags, feeds and the sitemap", env)
		envString(fs, &cfg.rateLimit, "rate-limit", "STUDIO_RATE_LIMIT", "5/10m", "submissions one client may make to each function, N/DURATION, or off", env)
		envString(fs, &cfg.trustedProxies, "trusted-proxies", "STUDIO_TRUSTED_PROXIES", "", "comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed", env)
		envString(fs, &cfg.allowedOrigins, "allowed-origins", "STUDIO_ALLOWED_ORIGINS", "", "comma-separated origins (https://example.com) that may call the functions from the browser (CORS); empty: same origin only", env)
		envString(fs, &cfg.smtpURL, "smtp-url", "STUDIO_SMTP_URL", "", "mail server for notifications, smtp://user:pass@host:587 (STARTTLS) or smtps://…:465; empty: no e-mail", env)
		envString(fs, &cfg.notifyTo, "notify-to", "STUDIO_NOTIFY_TO", "", "comma-separated addresses that get an e-mail for each new contact message", env)
		envString(fs, &cfg.notifyFrom, "notify-from", "STUDIO_NOTIFY_FROM", "", "sender address of the notifications and of staff sign-in codes (default: the first --notify-to)", env)
		envString(fs, &cfg.jwtExpiry, "jwt-expiry", "STUDIO_JWT_EXPIRY", "1h", "lifetime of staff access tokens", env)
		envString(fs, &cfg.otpExpiry, "otp-expiry", "STUDIO_OTP_EXPIRY", "10m", "lifetime of mailed sign-in codes and links", env)
		envString(fs, &cfg.authRateLimit, "auth-rate-limit", "STUDIO_AUTH_RATE_LIMIT", "30/5m", "requests one client may make to each of /auth/v1/otp and /auth/v1/verify, N/DURATION, or off", env)
		envString(fs, &cfg.sessionCheck, "session-check", "STUDIO_SESSION_CHECK", "10s", "how often each open realtime channel checks again that its staff session still exists", env)
		envString(fs, &cfg.refreshRateLimit, "auth-refresh-rate-limit", "STUDIO_AUTH_REFRESH_RATE_LIMIT", "150/5m", "requests one client may make to /auth/v1/token, N/DURATION, or off", env)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			return serve(ctx, cfg, stdout)
		}
	},
}

// serveConfig is the configuration of "studio serve".
type serveConfig struct {
	addr           string
	siteURL        string
	store          *store.Config
	rateLimit      string
	trustedProxies string
	allowedOrigins string
	smtpURL        string
	notifyTo       string
	notifyFrom     string

	jwtExpiry        string
	otpExpiry        string
	authRateLimit    string
	refreshRateLimit string
	sessionCheck     string
}

// storeFlags binds the flags that choose the store, shared by every command
// that reads or writes it.
func storeFlags(fs *flag.FlagSet, env func(string) string) *store.Config {
	var cfg store.Config
	envString(fs, &cfg.DataDir, "data", "STUDIO_DATA", "./data", "directory for local state (the SQLite store)", env)
	envString(fs, &cfg.DatabaseURL, "database-url", "DATABASE_URL", "", "PostgreSQL to store submissions in, postgres://user:pass@host/db; empty: SQLite in --data", env)
	return &cfg
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func serve(ctx context.Context, cfg serveConfig, logOut io.Writer) error {
	logs := newLogWriter(logOut, 250*time.Millisecond)
	defer logs.Close()
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	origin, err := site.ParseOrigin(cfg.siteURL)
	if err != nil {
		return fmt.Errorf("--site-url: %w", err)
	}
	rate, err := ratelimit.ParseRate(cfg.rateLimit)
	if err != nil {
		return fmt.Errorf("--rate-limit: %w", err)
	}
	proxies, err := server.ParsePrefixes(cfg.trustedProxies)
	if err != nil {
		return fmt.Errorf("--trusted-proxies: %w", err)
	}
	notifyCfg := contact.Notify{To: splitList(cfg.notifyTo), From: cfg.notifyFrom}
	if notifyCfg.From == "" && len(notifyCfg.To) > 0 {
		notifyCfg.From = notifyCfg.To[0]
	}
	if (cfg.smtpURL == "") != (len(notifyCfg.To) == 0) {
		return fmt.Errorf("--smtp-url and --notify-to go together: set both or neither")
	}
	authCfg, err := cfg.authConfig(origin)
	if err != nil {
		return err
	}
	var mailer *notify.SMTP
	if cfg.smtpURL != "" {
		if mailer, err = notify.ParseSMTPURL(cfg.smtpURL); err != nil {
			return fmt.Errorf("--smtp-url: %w", err)
		}
	}

	s, err := site.New(web.Site(), site.Options{Origin: origin})
	if err != nil {
		return err
	}
	db, err := openStore(ctx, *cfg.store)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Ping(ctx); err != nil {
		logger.Error("store not ready; the functions answer 503 until it is", "engine", db.Engine(), "err", err)
	}
	logger.Info("store", "engine", db.Engine())

	if mailer != nil {
		sender := &notify.Sender{Outbox: db, Mailer: mailer, Logger: logger}
		senderCtx, stopSender := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); sender.Run(senderCtx) }()
		defer func() { stopSender(); <-done }()
		notifyCfg.Queued = sender.Wake
		authCfg.MailFrom, authCfg.MailQueued = notifyCfg.From, sender.Wake
	}

	authCfg.Logger = logger
	authCfg.ClientIP = func(r *http.Request) string { return server.ClientIP(r, proxies).String() }
	authCfg.AllowedOrigins = splitList(cfg.allowedOrigins)
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	sessionCheck, err := time.ParseDuration(cfg.sessionCheck)
	if err != nil || sessionCheck < 100*time.Millisecond {
		return fmt.Errorf("--session-check %q: want a duration of at least 100ms, like 10s", cfg.sessionCheck)
	}
	authSvc := auth.New(db, authCfg)
	live := realtime.New(db, db.Changes(), authSvc, realtime.Config{
		AllowedOrigins: authCfg.AllowedOrigins, SessionCheck: sessionCheck, Logger: logger})
	liveCtx, stopLive := context.WithCancel(ctx)
	liveDone := make(chan struct{})
	go func() { defer close(liveDone); live.Run(liveCtx) }()
	defer func() { stopLive(); <-liveDone }()
	h := server.New(server.Deps{
		Site:    s,
		Logger:  logger,
		Contact: &contact.Service{Store: db, Notify: notifyCfg},
		Signup:  &signup.Service{Store: db},
		Functions: server.FunctionsConfig{
			RateLimit:      rate,
			TrustedProxies: proxies,
			AllowedOrigins: splitList(cfg.allowedOrigins),
		},
		Auth:     authSvc,
		Rest:     rest.New(db, authSvc, rest.Config{AllowedOrigins: authCfg.AllowedOrigins, Logger: logger, Unavailable: store.ErrUnavailable}),
		Realtime: live,
	})
	return server.Serve(ctx, ln, h, logger)
}

// openStore opens the store of cfg, creating the data directory for SQLite.
func openStore(ctx context.Context, cfg store.Config) (*store.DB, error) {
	if cfg.DatabaseURL == "" {
		if err := mkdirData(cfg.DataDir); err != nil {
			return nil, err
		}
	}
	openCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return store.Open(openCtx, cfg)
}

// authConfig is the staff sign-in service's part of the configuration.
func (cfg serveConfig) authConfig(origin string) (auth.Config, error) {
	c := auth.Config{SiteOrigin: origin}
	var err error
	if c.JWTExpiry, err = time.ParseDuration(cfg.jwtExpiry); err != nil || c.JWTExpiry < time.Minute {
		return c, fmt.Errorf("--jwt-expiry %q: want a duration of at least 1m, like 1h", cfg.jwtExpiry)
	}
	if c.OTPExpiry, err = time.ParseDuration(cfg.otpExpiry); err != nil || c.OTPExpiry < time.Minute {
		return c, fmt.Errorf("--otp-expiry %q: want a duration of at least 1m, like 10m", cfg.otpExpiry)
	}
	if c.RateLimit, err = ratelimit.ParseRate(cfg.authRateLimit); err != nil {
		return c, fmt.Errorf("--auth-rate-limit: %w", err)
	}
	if c.RefreshRateLimit, err = ratelimit.ParseRate(cfg.refreshRateLimit); err != nil {
		return c, fmt.Errorf("--auth-refresh-rate-limit: %w", err)
	}
	return c, nil
}
