package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// command is one subcommand of studio. setup binds the command's flags (their
// defaults read from env) and returns the function that runs it after parsing.
type command struct {
	name        string
	summary     string
	description string
	setup       func(fs *flag.FlagSet, env func(string) string) action
}

type action func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error

func commands() []command {
	return []command{serveCommand, messagesListCommand, waitlistListCommand, subscribersListCommand,
		staffAddCommand, staffListCommand, staffRemoveCommand, staffSignInCodeCommand, staffResetMFACommand, staffLinkCommand, staffUnlockCommand, ssoAddCommand, ssoListCommand, ssoRemoveCommand, oauthAddCommand, oauthListCommand, oauthRemoveCommand, keysPrintAnonCommand, keysRotateCommand, keysSealCommand, keysUnsealCommand, keysDropUnreadableCommand, auditListCommand, analyticsSummaryCommand, storageLsCommand, storagePutCommand, storageGetCommand, storageRmCommand, backupCommand, restoreCommand, healthcheckCommand}
}

// errUsage marks a usage error already reported to the user.
var errUsage = errors.New("usage")

// run executes the command line and returns the process exit code:
// 0 on success, 2 on a usage error, 1 on any other failure.
func run(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return 2
	}
	if isHelp(args[0]) {
		printUsage(stdout)
		return 0
	}
	for _, c := range commands() {
		// A name may have several words: "messages list".
		words := strings.Fields(c.name)
		if len(args) < len(words) || !slices.Equal(args[:len(words)], words) {
			continue
		}
		fs := flag.NewFlagSet("studio "+c.name, flag.ContinueOnError)
		fs.SetOutput(stderr)
		act := c.setup(fs, env)
		fs.Usage = func() {} // printed below: to stdout when asked for, else to stderr
		if err := fs.Parse(args[len(words):]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printCommandUsage(stdout, c, fs)
				return 0
			}
			printCommandUsage(stderr, c, fs)
			return 2
		}
		err := act(ctx, fs, stdout, stderr)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, errUsage):
			return 2
		default:
			fmt.Fprintf(stderr, "studio %s: %v\n", c.name, err)
			return 1
		}
	}
	if cmds := group(args[0]); len(cmds) > 0 {
		return runGroup(args, cmds, stdout, stderr)
	}
	fmt.Fprintf(stderr, "studio: unknown command %q\n\n", args[0])
	printUsage(stderr)
	return 2
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "help"
}

// group returns the commands whose first word is name and that have a second
// ("staff" gives "staff add", "staff list", …): none when name is no group.
func group(name string) []command {
	var cmds []command
	for _, c := range commands() {
		if words := strings.Fields(c.name); len(words) > 1 && words[0] == name {
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// runGroup answers a command line that names a group (args[0]) but none of its
// commands: the group's commands, on stdout when help was asked for (exit 0),
// else on stderr after what was wrong (exit 2).
func runGroup(args []string, cmds []command, stdout, stderr io.Writer) int {
	name := args[0]
	switch {
	case len(args) > 1 && isHelp(args[1]):
		printGroupUsage(stdout, name, cmds)
		return 0
	case len(args) == 1:
		fmt.Fprintf(stderr, "studio %s: a command is missing\n\n", name)
	default:
		fmt.Fprintf(stderr, "studio %s: unknown command %q\n\n", name, args[1])
	}
	printGroupUsage(stderr, name, cmds)
	return 2
}

func printGroupUsage(w io.Writer, name string, cmds []command) {
	fmt.Fprintf(w, "Usage:\n  studio %s <command> [flags]\n\nCommands:\n", name)
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-20s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\n\"studio %s <command> --help\" describes a command and its flags.\n", name)
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, "studio serves the venture studio's web site and backend functions from one binary.\n\n")
	fmt.Fprint(w, "Usage:\n  studio <command> [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-20s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nFlags may be written -name or --name. Each can also be set by the environment\nvariable shown beside it; a flag on the command line wins.\n")
	for _, c := range commands() {
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.setup(fs, func(string) string { return "" })
		fmt.Fprintf(w, "\nstudio %s:\n", c.name)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

func printCommandUsage(w io.Writer, c command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: studio %s [flags]\n\n%s\n\nFlags:\n", c.name, c.description)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// envString registers a string flag whose default comes from an environment
// variable when it is set, and says so in the help text.
func envString(fs *flag.FlagSet, p *string, name, envVar, def, usage string, env func(string) string) {
	if v := strings.TrimSpace(env(envVar)); v != "" {
		def = v
	}
	fs.StringVar(p, name, def, fmt.Sprintf("%s (env %s)", usage, envVar))
}

// envBool registers a boolean flag whose default comes from an environment
// variable (true, 1, false, 0…) when it is set to one.
func envBool(fs *flag.FlagSet, p *bool, name, envVar string, def bool, usage string, env func(string) string) {
	if v, err := strconv.ParseBool(strings.TrimSpace(env(envVar))); err == nil {
		def = v
	}
	fs.BoolVar(p, name, def, fmt.Sprintf("%s (env %s)", usage, envVar))
}

// envInt registers an integer flag whose default comes from an environment
// variable when it is set to an integer.
func envInt(fs *flag.FlagSet, p *int, name, envVar string, def int, usage string, env func(string) string) {
	if v, err := strconv.Atoi(strings.TrimSpace(env(envVar))); err == nil {
		def = v
	}
	fs.IntVar(p, name, def, fmt.Sprintf("%s (env %s)", usage, envVar))
}

// noArgs reports a usage error when positional arguments follow the flags.
func noArgs(fs *flag.FlagSet, stderr io.Writer) error {
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}
