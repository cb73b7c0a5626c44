package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"studio/internal/auth"
	"studio/internal/contact"
	"studio/internal/metrics"
	"studio/internal/notify"
	"studio/internal/ratelimit"
	"studio/internal/realtime"
	"studio/internal/rest"
	"studio/internal/server"
	"studio/internal/signup"
	"studio/internal/site"
	"studio/internal/storage"
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
		cfg.https = httpsFlags(fs, env)
		envString(fs, &cfg.metricsAddr, "metrics-addr", "STUDIO_METRICS_ADDR", "", "address to serve Prometheus metrics on (/metrics), kept off the public address, e.g. 127.0.0.1:9090; empty: off", env)
		envString(fs, &cfg.siteURL, "site-url", "STUDIO_SITE_URL", site.BuildOrigin, "public origin of the site, for canonical links, share tags, feeds and the sitemap", env)
		envString(fs, &cfg.rateLimit, "rate-limit", "STUDIO_RATE_LIMIT", "5/10m", "submissions one client may make to each function, N/DURATION, or off", env)
		envString(fs, &cfg.trustedProxies, "trusted-proxies", "STUDIO_TRUSTED_PROXIES", "", "comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed", env)
		envString(fs, &cfg.allowedOrigins, "allowed-origins", "STUDIO_ALLOWED_ORIGINS", "", "comma-separated origins (https://example.com) that may call the functions from the browser (CORS); empty: same origin only", env)
		envString(fs, &cfg.redirectURLs, "redirect-urls", "STUDIO_REDIRECT_URLS", "", "comma-separated URLs that a staff sign-in link may open (the client's emailRedirectTo), exact or with a glob in the path (https://studio.example/app/**: * stays within one path segment, ** does not); the site's /admin and everything under it are always allowed, and any other redirect_to is replaced by /admin", env)
		envString(fs, &cfg.smtpURL, "smtp-url", "STUDIO_SMTP_URL", "", "mail server for notifications, smtp://user:pass@host:587 (STARTTLS) or smtps://…:465; empty: no e-mail", env)
		envString(fs, &cfg.notifyTo, "notify-to", "STUDIO_NOTIFY_TO", "", "comma-separated addresses that get an e-mail for each new contact message", env)
		envString(fs, &cfg.notifyFrom, "notify-from", "STUDIO_NOTIFY_FROM", "", "sender address of the notifications and of staff sign-in codes (default: the first --notify-to)", env)
		envString(fs, &cfg.jwtExpiry, "jwt-expiry", "STUDIO_JWT_EXPIRY", "1h", "lifetime of staff access tokens", env)
		envString(fs, &cfg.otpExpiry, "otp-expiry", "STUDIO_OTP_EXPIRY", "10m", "lifetime of mailed sign-in codes and links", env)
		envString(fs, &cfg.authRateLimit, "auth-rate-limit", "STUDIO_AUTH_RATE_LIMIT", "30/5m", "requests one client may make to each of /auth/v1/otp and /auth/v1/verify, N/DURATION, or off", env)
		envString(fs, &cfg.sessionCheck, "session-check", "STUDIO_SESSION_CHECK", "10s", "how often each open realtime channel checks again that its staff session still exists", env)
		envInt(fs, &cfg.realtimeMaxConns, "realtime-max-conns-per-ip", "STUDIO_REALTIME_MAX_CONNS_PER_IP", realtime.DefaultMaxConnsPerClient, "open /realtime/v1 websockets one client address (an IPv6 client's /64) may hold; more are refused with 429", env)
		envInt(fs, &cfg.realtimeMaxChannels, "realtime-max-channels", "STUDIO_REALTIME_MAX_CHANNELS", realtime.DefaultMaxChannels, "channels one /realtime/v1 websocket may join", env)
		envInt(fs, &cfg.realtimeMaxBindings, "realtime-max-bindings", "STUDIO_REALTIME_MAX_BINDINGS", realtime.DefaultMaxBindings, "postgres_changes bindings one /realtime/v1 channel may have", env)
		envString(fs, &cfg.refreshRateLimit, "auth-refresh-rate-limit", "STUDIO_AUTH_REFRESH_RATE_LIMIT", "150/5m", "requests one client may make to /auth/v1/token, N/DURATION, or off", env)
		envBool(fs, &cfg.requireMFA, "require-mfa", "STUDIO_REQUIRE_MFA", false, "staff must verify a second factor (TOTP or passkey: aal2) before they see any data", env)
		envInt(fs, &cfg.storageCacheMB, "storage-cache-mb", "STUDIO_STORAGE_CACHE_MB", 64, "memory in MiB kept for the bytes of the small files (up to 256 KiB each) downloads read most; 0: none", env)
		envString(fs, &cfg.storageURL, "storage-url", "STUDIO_STORAGE_URL", "", "where /storage/v1 keeps the bytes of files: empty for the directory storage in --data, or s3://BUCKET?endpoint=…&region=… for an S3-compatible service that several servers share", env)
		cfg.secrets = secretKeyFlags(fs, env)
		cfg.signIn = bindSignInFlags(fs, env)
		cfg.analytics = bindAnalyticsFlags(fs, env)
		envString(fs, &cfg.mfaChallengeExpiry, "mfa-challenge-expiry", "STUDIO_MFA_CHALLENGE_EXPIRY", "5m", "how long an MFA challenge (TOTP or passkey) may be verified", env)
		envString(fs, &cfg.sessionTimebox, "session-timebox", "STUDIO_SESSION_TIMEBOX", "168h", "a staff session ends this long after its sign-in, or off", env)
		envString(fs, &cfg.sessionInactivity, "session-inactivity-timeout", "STUDIO_SESSION_INACTIVITY_TIMEOUT", "24h", "a staff session not refreshed for this long ends, or off", env)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			return serve(ctx, cfg, stdout)
		}
	},
}

// siteCacheDir, in --data, keeps the compressed pages rewritten for the
// site URL and the CAPTCHA, so that only the first start with them
// compresses (internal/site/compress.go).
const siteCacheDir = "site-cache"

// serveConfig is the configuration of "studio serve".
type serveConfig struct {
	addr           string
	siteURL        string
	store          *store.Config
	https          *httpsConfig
	metricsAddr    string
	rateLimit      string
	trustedProxies string
	allowedOrigins string
	redirectURLs   string
	smtpURL        string
	storageURL     string
	storageCacheMB int
	notifyTo       string
	notifyFrom     string

	jwtExpiry        string
	otpExpiry        string
	authRateLimit    string
	refreshRateLimit string

	requireMFA         bool
	secrets            *secretKeyConfig
	mfaChallengeExpiry string
	sessionTimebox     string
	sessionInactivity  string
	sessionCheck       string

	realtimeMaxConns    int
	realtimeMaxChannels int
	realtimeMaxBindings int

	signIn    *signInFlags // phone codes and the CAPTCHA
	analytics *analyticsFlags
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
	for _, limit := range []struct {
		flag  string
		value int
	}{
		{"--realtime-max-conns-per-ip", cfg.realtimeMaxConns},
		{"--realtime-max-channels", cfg.realtimeMaxChannels},
		{"--realtime-max-bindings", cfg.realtimeMaxBindings},
	} {
		if limit.value < 1 {
			return fmt.Errorf("%s %d: want at least 1", limit.flag, limit.value)
		}
	}
	if err := cfg.analytics.check(); err != nil {
		return err
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
	if authCfg.Captcha, err = cfg.signIn.captcha(); err != nil {
		return err
	}
	if authCfg.SMS, err = cfg.signIn.sms(); err != nil {
		return err
	}
	var mailer *notify.SMTP
	if cfg.smtpURL != "" {
		if mailer, err = notify.ParseSMTPURL(cfg.smtpURL); err != nil {
			return fmt.Errorf("--smtp-url: %w", err)
		}
	}

	// --data holds the key file and the storage's blobs on PostgreSQL too:
	// one an earlier release left readable by others is tightened.
	if _, err := os.Stat(cfg.store.DataDir); err == nil {
		if err := mkdirData(cfg.store.DataDir); err != nil {
			return err
		}
	}
	storeCfg := *cfg.store
	storeCfg.Logger = logger
	db, err := openStore(ctx, storeCfg)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Ping(ctx); err != nil {
		logger.Error("store not ready; the functions answer 503 until it is", "engine", db.Engine(), "err", err)
	}
	logger.Info("store", "engine", db.Engine())
	// The site compresses what it rewrote for these options while the
	// server starts, or reads it from what an earlier start kept in --data.
	widget, widgetPages := cfg.signIn.captchaWidget(authCfg.Captcha)
	s, err := site.New(web.Site(), site.Options{Origin: origin, Captcha: widget, CaptchaPages: widgetPages,
		CacheDir: filepath.Join(cfg.store.DataDir, siteCacheDir), Logger: logger})
	if err != nil {
		return err
	}
	// Whatever ends serve, the site's cache in --data is written whole
	// first (a start refused by a later flag returns at once).
	defer func() { <-s.Ready() }()
	// The key is loaded once the store is open: no key file is made beside
	// a store whose secrets another key sealed.
	keyCtx, keyCancel := context.WithTimeout(ctx, 10*time.Second)
	authCfg.MFAKey, err = cfg.secrets.load(keyCtx, *cfg.store, db, logger, true)
	keyCancel()
	if err != nil {
		return err
	}

	meters := metrics.New(db.OutboxDepth)
	meters.WatchStore(db.Up, db.LastCommit)
	meters.ChangefeedListening(db.Following)
	if mailer != nil {
		sender := &notify.Sender{Outbox: db, Mailer: mailer, Logger: logger, Failed: meters.MailFailed, Secrets: authCfg.MFAKey}
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
	unreachable := bucketsUnreachable(logger)
	authCfg.Buckets, authCfg.BucketsUnreachable = sharedBuckets(db), unreachable
	authCfg.RateLimited, authCfg.SignIn = meters.RateLimited, meters.SignIn
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	opts, err := cfg.https.options(db, authCfg.MFAKey, ln.Addr().String(), logger)
	if err != nil {
		ln.Close()
		return err
	}
	if cfg.metricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.metricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", meters.Handler())
		opts.Sides = append(opts.Sides, server.Side{Name: "metrics", Listener: mln, Handler: mux})
	}
	sessionCheck, err := time.ParseDuration(cfg.sessionCheck)
	if err != nil || sessionCheck < 100*time.Millisecond {
		return fmt.Errorf("--session-check %q: want a duration of at least 100ms, like 10s", cfg.sessionCheck)
	}
	if cfg.storageCacheMB < 0 {
		ln.Close()
		return fmt.Errorf("--storage-cache-mb %d: want 0 (no cache) or more", cfg.storageCacheMB)
	}
	blobs, err := openBackend(ctx, cfg.storageURL, cfg.store.DataDir)
	if err != nil {
		ln.Close()
		return fmt.Errorf("--storage-url: %w", err)
	}
	authSvc := auth.New(db, authCfg)
	keyCtx, keyCancel = context.WithTimeout(ctx, 10*time.Second)
	authSvc.CheckSecretKey(keyCtx) // records the key in a new store; refuses to seal with another
	keyCancel()
	files := storage.New(db, blobs, authSvc, storage.Config{
		SigningKey: authCfg.MFAKey.Derive("storage signed urls"), AllowedOrigins: authCfg.AllowedOrigins, Logger: logger,
		Feed: db, BlobCacheBytes: int64(cfg.storageCacheMB) << 20,
	})
	seedDownloads(ctx, files, logger)
	counting, stopCounting := context.WithCancel(context.Background())
	counted := make(chan struct{})
	go func() { defer close(counted); files.CountDownloads(counting, 5*time.Second) }()
	defer func() { stopCounting(); <-counted }() // the last counts, before the store closes
	go files.Follow(counting)
	defer authSvc.Wait() // codes being mailed after their answer
	counter := cfg.analytics.counter(db, origin, logger)
	if counter != nil {
		countingViews, stopViews := context.WithCancel(context.Background())
		viewsDone := make(chan struct{})
		go func() { defer close(viewsDone); counter.Run(countingViews) }()
		defer func() { stopViews(); <-viewsDone }() // the last views, before the store closes
	}
	live := realtime.New(db, db.Changes(), authSvc, realtime.Config{
		Feed: db, AllowedOrigins: authCfg.AllowedOrigins, SessionCheck: sessionCheck, Logger: logger,
		Connected: meters.RealtimeConnected, Limited: meters.RealtimeLimited,
		ClientIP:          func(r *http.Request) netip.Addr { return server.ClientIP(r, proxies) },
		MaxConnsPerClient: cfg.realtimeMaxConns, MaxChannels: cfg.realtimeMaxChannels, MaxBindings: cfg.realtimeMaxBindings,
	})
	liveCtx, stopLive := context.WithCancel(ctx)
	liveDone := make(chan struct{}, 2)
	go func() { defer func() { liveDone <- struct{}{} }(); live.Run(liveCtx) }()
	// On PostgreSQL, the changes other servers commit reach this one's consoles.
	go func() { defer func() { liveDone <- struct{}{} }(); db.FollowChanges(liveCtx, logger) }()
	defer func() { stopLive(); <-liveDone; <-liveDone }()
	h := server.New(server.Deps{
		Site:      s,
		Logger:    logger,
		AccessLog: logs, // the lines logger would write, cheaper
		Contact:   &contact.Service{Store: db, Notify: notifyCfg},
		Signup:    &signup.Service{Store: db},
		Functions: server.FunctionsConfig{
			RateLimit:          rate,
			TrustedProxies:     proxies,
			AllowedOrigins:     splitList(cfg.allowedOrigins),
			Buckets:            authCfg.Buckets,
			BucketsUnreachable: unreachable,
			Captcha:            cfg.signIn.formsCaptcha(authCfg.Captcha),
		},
		Auth:      authSvc,
		Rest:      rest.New(db, authSvc, rest.Config{AllowedOrigins: authCfg.AllowedOrigins, Logger: logger, Analytics: counter != nil}),
		Realtime:  live,
		Storage:   files,
		Metrics:   meters,
		Analytics: counter,
		// What /readyz asks (ready.go).
		ReadyChecks: readyChecks(db, authSvc, s),
	})
	return server.Serve(ctx, ln, h, logger, opts)
}

// sharedBuckets is where the rate limits count: in the store on PostgreSQL,
// where several servers may share it (docs/deploy.md); in this process on
// SQLite, which one server owns.
func sharedBuckets(db *store.DB) ratelimit.Buckets {
	if db.Engine() == "postgres" {
		return db
	}
	return nil
}

// bucketsUnreachable logs, at most once a minute, that the rate limits count
// in this process because the store cannot be reached.
func bucketsUnreachable(logger *slog.Logger) func(error) {
	var mu sync.Mutex
	var last time.Time
	return func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < time.Minute {
			return
		}
		last = time.Now()
		logger.Warn("rate limits count in this process: the store cannot be reached", "err", err)
	}
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
	if c.Redirects, err = auth.NewRedirectAllowList(origin, splitList(cfg.redirectURLs)); err != nil {
		return c, fmt.Errorf("--redirect-urls: %w", err)
	}
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
	c.RequireMFA = cfg.requireMFA
	if c.MFAChallengeExpiry, err = time.ParseDuration(cfg.mfaChallengeExpiry); err != nil || c.MFAChallengeExpiry < time.Second {
		return c, fmt.Errorf("--mfa-challenge-expiry %q: want a duration of at least 1s, like 5m", cfg.mfaChallengeExpiry)
	}
	if c.SessionTimebox, err = limitDuration("--session-timebox", cfg.sessionTimebox); err != nil {
		return c, err
	}
	if c.SessionInactivityTimeout, err = limitDuration("--session-inactivity-timeout", cfg.sessionInactivity); err != nil {
		return c, err
	}
	return c, nil
}

// limitDuration parses a session limit: a duration of at least 1s, or off
// (zero).
func limitDuration(flag, s string) (time.Duration, error) {
	if s == "off" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < time.Second {
		return 0, fmt.Errorf("%s %q: want a duration of at least 1s, like 24h, or off", flag, s)
	}
	return d, nil
}
