package server

// ProblemReasons are the reasons a native form post can be redirected for,
// for the tests of package server_test.
var ProblemReasons = problemReasons

// ConsoleConfigHandler is handleConsoleConfig, for the tests of package server_test.
var ConsoleConfigHandler = handleConsoleConfig
