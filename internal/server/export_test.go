package server

import (
	"log/slog"
	"net/http"
)

// ProblemReasons are the reasons a native form post can be redirected for,
// for the tests of package server_test.
var ProblemReasons = problemReasons

// ConsoleConfigHandler is handleConsoleConfig without a log, for the tests
// of package server_test.
func ConsoleConfigHandler(keys AnonKeySource) http.HandlerFunc {
	return handleConsoleConfig(keys, slog.New(slog.DiscardHandler))
}
