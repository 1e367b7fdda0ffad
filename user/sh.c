/*
 * sh.c - a small shell for OS labs.
 *
 *	sh                 read commands from stdin (prompt "rewind$ " on a terminal)
 *	sh script          read them from a file
 *	sh -c 'commands'   run one string
 *
 * What it understands: programs with arguments, searched in $PATH (default
 * /bin); `a | b | c`; `< file`, `> file`, `>> file`; '...' and "..."
 * quoting and backslash escapes; $? and $NAME (from the environment);
 * `*` and `?` typed bare in a word (`cat /proc/sys/rewind/v*`): the paths
 * they match, sorted, or the word as it is when none matches, as sh does;
 * `;` or newlines between pipelines, `&&` and `||`; `#` comments. Built in: `cd [dir]`,
 * `exec CMD [ARG...]`, `exit [n]`, `echo [-n] [WORD...]`, `help` (lists these), `knob [NAME [VALUE]]`
 * (the kernel's policies in /proc/sys/rewind/, * marking those that can be
 * set at run time), and the prefix `time PIPELINE`,
 * which prints real, user and sys seconds on stderr in the format of
 * `/usr/bin/time -p`. A builtin whose output cannot be written says
 * "sh: NAME: write error: REASON" and fails, as bash's do: `echo bogus >
 * /proc/sys/rewind/vsyscall` reports the knob's EINVAL and sets $? to 1.
 *
 * On its controlling terminal (init gives it the console) each pipeline
 * runs in a process group of its own in the foreground, so that ^C, ^\
 * and ^Z reach the pipeline and not the shell; a pipeline stopped by ^Z
 * is continued at once, since there is no job control here (busybox ash
 * has it).
 *
 * Not for: variables, control flow, background jobs (`&`). Scripts that
 * need those belong on the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "lib/echo.h"
#include "lib/knob_cmd.h"
#include "lib/read_line.h"

#define MAX_LINE 4096
#define MAX_ARGS 128
#define MAX_CMDS 16

static int last_status; /* $? */
static bool
	owns_terminal; /* interactive on its controlling terminal: pipelines get the foreground */

/* The terminal's keys are for the pipelines; SIGTTOU would stop us taking the terminal back. */
static const int shell_ignores[] = { SIGINT, SIGQUIT, SIGTSTP, SIGTTOU };

/* --- reading input -------------------------------------------------------- */

static bool
is_tty(int fd)
{
	struct termios t;

	return tcgetattr(fd, &t) == 0; /* ioctl TCGETS */
}

/* --- words and operators -------------------------------------------------- */

enum token { T_WORD, T_PIPE, T_IN, T_OUT, T_APPEND, T_SEP, T_AND, T_OR, T_END, T_ERROR };

struct lexer {
	const char *p;		  /* next input character */
	char buf[2 * MAX_LINE];	  /* the words of the current pipeline */
	bool typed[2 * MAX_LINE]; /* buf[i] was typed bare: a * or ? there is a pattern */
	size_t used;
	char *word;   /* the text of the last T_WORD */
	bool pattern; /* that word has a bare * or ?: it names the files it matches */
};

static bool
ends_word(char c)
{
	return !c || strchr(" \t\n;|&<>", c);
}

/* A character of a word as it is: quoted, escaped or expanded from a variable. */
static bool
put(struct lexer *lx, char c)
{
	if (lx->used == sizeof(lx->buf))
		return false;
	lx->typed[lx->used] = false;
	lx->buf[lx->used++] = c;
	return true;
}

/* A bare character of a word, which may make it a file-name pattern. */
static bool
put_typed(struct lexer *lx, char c)
{
	if (!put(lx, c))
		return false;
	lx->typed[lx->used - 1] = true;
	if (c == '*' || c == '?')
		lx->pattern = true;
	return true;
}

static bool
put_str(struct lexer *lx, const char *s)
{
	while (*s)
		if (!put(lx, *s++))
			return false;
	return true;
}

/* Expands $? or $NAME at lx->p (just after the '$'); a lone '$' stays. */
static bool
expand_dollar(struct lexer *lx)
{
	char name[128];
	size_t len = 0;

	if (*lx->p == '?') {
		char num[16];

		lx->p++;
		snprintf(num, sizeof(num), "%d", last_status);
		return put_str(lx, num);
	}
	while ((*lx->p == '_' || (*lx->p >= 'A' && *lx->p <= 'Z') ||
		(*lx->p >= 'a' && *lx->p <= 'z') || (len && *lx->p >= '0' && *lx->p <= '9')) &&
	       len + 1 < sizeof(name))
		name[len++] = *lx->p++;
	if (!len)
		return put(lx, '$');
	name[len] = '\0';
	const char *value = getenv(name);

	return put_str(lx, value ? value : "");
}

/* One character inside "...": only \, $ and " are special there. */
static bool
lex_double_quoted(struct lexer *lx)
{
	char c = *lx->p++;

	if (c == '$')
		return expand_dollar(lx);
	if (c == '\\' && (*lx->p == '"' || *lx->p == '\\' || *lx->p == '$'))
		c = *lx->p++;
	return put(lx, c);
}

static enum token
lex_word(struct lexer *lx)
{
	char quote = 0;
	bool ok = true;

	lx->word = lx->buf + lx->used;
	lx->pattern = false;
	while (ok && *lx->p && (quote || !ends_word(*lx->p))) {
		char c = *lx->p;

		if (quote == '"' && c != '"') {
			ok = lex_double_quoted(lx);
			continue;
		}
		lx->p++;
		if (quote == '\'' && c != '\'')
			ok = put(lx, c);
		else if (c == quote)
			quote = 0;
		else if (c == '\'' || c == '"')
			quote = c;
		else if (c == '$')
			ok = expand_dollar(lx);
		else if (c == '\\' && *lx->p)
			ok = put(lx, *lx->p++);
		else
			ok = put_typed(lx, c);
	}
	if (ok)
		ok = put(lx, '\0');
	if (!ok) {
		fprintf(stderr, "sh: line too long\n");
		return T_ERROR;
	}
	if (quote) {
		fprintf(stderr, "sh: unterminated %c quote\n", quote);
		return T_ERROR;
	}
	return T_WORD;
}

static enum token
next_token(struct lexer *lx)
{
	for (;;) {
		while (*lx->p == ' ' || *lx->p == '\t')
			lx->p++;
		if (*lx->p != '#')
			break;
		/* A comment runs to the end of its line. */
		lx->p += strcspn(lx->p, "\n");
	}
	switch (*lx->p) {
	case '\0':
		return T_END;
	case '\n':
	case ';':
		lx->p++;
		return T_SEP;
	case '|':
		lx->p++;
		if (*lx->p == '|') {
			lx->p++;
			return T_OR;
		}
		return T_PIPE;
	case '&':
		lx->p++;
		if (*lx->p == '&') {
			lx->p++;
			return T_AND;
		}
		fprintf(stderr, "sh: background jobs (&) are not supported\n");
		return T_ERROR;
	case '<':
		lx->p++;
		return T_IN;
	case '>':
		lx->p++;
		if (*lx->p == '>') {
			lx->p++;
			return T_APPEND;
		}
		return T_OUT;
	default:
		return lex_word(lx);
	}
}

/* --- pipelines ------------------------------------------------------------ */

struct cmd {
	char *argv[MAX_ARGS];
	int argc;
	char *in, *out; /* redirections, or NULL */
	bool append;
};

struct pipeline {
	struct cmd cmd[MAX_CMDS];
	int n;
	bool timed; /* started with `time` */
};

static const char *
token_text(enum token t)
{
	static const char *const text[] = {
		[T_PIPE] = "|", [T_IN] = "<",	[T_OUT] = ">", [T_APPEND] = ">>",
		[T_SEP] = ";",	[T_AND] = "&&", [T_OR] = "||", [T_END] = "end of line",
	};
	return text[t] ? text[t] : "?";
}

static int
syntax_error(enum token t)
{
	if (t != T_ERROR)
		fprintf(stderr, "sh: syntax error near %s\n", token_text(t));
	return -1;
}

static int
add_arg(struct cmd *c, char *arg)
{
	if (c->argc == MAX_ARGS - 1) {
		fprintf(stderr, "sh: more than %d arguments\n", MAX_ARGS - 1);
		return -1;
	}
	c->argv[c->argc++] = arg;
	return 0;
}

/*
 * The last word as glob(3) must see it: its quoted and escaped characters
 * behind a backslash, so that only what was typed bare is a pattern.
 */
static bool
word_pattern(const struct lexer *lx, char *out, size_t size)
{
	size_t n = 0;

	for (size_t i = lx->word - lx->buf; lx->buf[i]; i++) {
		if (!lx->typed[i] && strchr("*?[\\", lx->buf[i]) && n < size)
			out[n++] = '\\';
		if (n < size)
			out[n++] = lx->buf[i];
	}
	if (n == size)
		return false;
	out[n] = '\0';
	return true;
}

/*
 * Adds the last word to c's arguments; a word with a bare * or ? becomes
 * the paths it matches, sorted, or stays as typed when none does, as in sh.
 */
static int
add_word(struct lexer *lx, struct cmd *c)
{
	static char pattern[2 * MAX_LINE];
	glob_t g;
	int rc = 0;

	if (!lx->pattern || !word_pattern(lx, pattern, sizeof(pattern)) ||
	    glob(pattern, 0, NULL, &g) != 0)
		return add_arg(c, lx->word);
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		char *path = lx->buf + lx->used;

		if (!put_str(lx, g.gl_pathv[i]) || !put(lx, '\0')) {
			fprintf(stderr, "sh: line too long\n");
			rc = -1;
		} else {
			rc = add_arg(c, path);
		}
	}
	globfree(&g);
	return rc;
}

static bool
cmd_is_empty(const struct cmd *c)
{
	return c->argc == 0 && !c->in && !c->out;
}

static int
parse_redirection(struct lexer *lx, struct cmd *c, enum token t)
{
	enum token w = next_token(lx);

	if (w != T_WORD)
		return syntax_error(w);
	if (t == T_IN) {
		c->in = lx->word;
	} else {
		c->out = lx->word;
		c->append = t == T_APPEND;
	}
	return 0;
}

/*
 * Parses one pipeline, up to a `;`, newline, `&&`, `||` or the end, which
 * it stores in *end. Lexing pipeline by pipeline is what makes
 * `false; echo $?` print 1: the $? of a later pipeline is expanded after
 * the earlier one ran. Returns -1 on a syntax error (already reported).
 */
static int
parse_pipeline(struct lexer *lx, struct pipeline *pl, enum token *end)
{
	struct cmd *c = &pl->cmd[0];

	memset(pl, 0, sizeof(*pl));
	lx->used = 0;
	pl->n = 1;
	for (;;) {
		enum token t = next_token(lx);

		switch (t) {
		case T_WORD:
			if (pl->n == 1 && c->argc == 0 && !pl->timed && !strcmp(lx->word, "time"))
				pl->timed = true;
			else if (add_word(lx, c) < 0)
				return -1;
			break;
		case T_IN:
		case T_OUT:
		case T_APPEND:
			if (parse_redirection(lx, c, t) < 0)
				return -1;
			break;
		case T_PIPE:
			if (cmd_is_empty(c))
				return syntax_error(t);
			if (pl->n == MAX_CMDS) {
				fprintf(stderr, "sh: more than %d commands in a pipeline\n",
					MAX_CMDS);
				return -1;
			}
			c = &pl->cmd[pl->n++];
			break;
		case T_AND:
		case T_OR:
			if (cmd_is_empty(c) && !pl->timed)
				return syntax_error(t);
			/* fall through */
		case T_SEP:
		case T_END:
			if (pl->n > 1 && cmd_is_empty(c))
				return syntax_error(t);
			if (pl->n == 1 && cmd_is_empty(c))
				pl->n = 0;
			*end = t;
			return 0;
		case T_ERROR:
			return -1;
		}
	}
}

/* --- running programs ----------------------------------------------------- */

/*
 * Runs argv[0], searched in $PATH unless it names a path. "not found" (127)
 * when no directory has it; otherwise the first other reason (126).
 */
static void __attribute__((noreturn)) exec_command(char **argv)
{
	const char *name = argv[0];
	const char *path = getenv("PATH");
	int err = ENOENT;

	if (strchr(name, '/')) {
		execv(name, argv);
		err = errno;
	} else {
		if (!path || !*path)
			path = "/bin";
		while (*path) {
			size_t dirlen = strcspn(path, ":");
			char full[MAX_LINE];

			snprintf(full, sizeof(full), "%.*s/%s", dirlen ? (int)dirlen : 1,
				 dirlen ? path : ".", name);
			execv(full, argv);
			if (errno != ENOENT && errno != ENOTDIR && err == ENOENT)
				err = errno;
			path += dirlen + (path[dirlen] == ':');
		}
	}
	if (err == ENOENT) {
		fprintf(stderr, "sh: %s: not found\n", name);
		_exit(127);
	}
	fprintf(stderr, "sh: %s: %s\n", name, strerror(err));
	_exit(126);
}

static int
open_redirection(const char *path, bool out, bool append)
{
	int flags = out ? O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) : O_RDONLY;
	int fd = open(path, flags, 0666);

	if (fd < 0)
		fprintf(stderr, "sh: %s: %s\n", path, strerror(errno));
	return fd;
}

/* Points fd target at a redirection's file. */
static int
redirect(const char *path, bool out, bool append, int target)
{
	int fd = open_redirection(path, out, append);

	if (fd < 0)
		return -1;
	if (fd != target) {
		dup2(fd, target);
		close(fd);
	}
	return 0;
}

static int
apply_redirections(const struct cmd *c)
{
	if (c->in && redirect(c->in, false, false, STDIN_FILENO) < 0)
		return -1;
	if (c->out && redirect(c->out, true, c->append, STDOUT_FILENO) < 0)
		return -1;
	return 0;
}

/*
 * A command that runs inside the shell process itself keeps the shell's
 * own fds; its redirections are still opened (and closed) so that
 * `cd /x > log` creates log and a missing input file is an error.
 */
static int
touch_redirections(const struct cmd *c)
{
	int fd;

	if (c->in) {
		if ((fd = open_redirection(c->in, false, false)) < 0)
			return -1;
		close(fd);
	}
	if (c->out) {
		if ((fd = open_redirection(c->out, true, c->append)) < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* --- built-in commands ---------------------------------------------------- */

static int
builtin_cd(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("HOME");

	if (!dir || !*dir)
		dir = "/";
	if (chdir(dir) < 0) {
		fprintf(stderr, "sh: cd: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}

static int
builtin_exit(int argc, char **argv)
{
	int code = last_status;

	if (argc > 1) {
		char *end;

		code = (int)strtol(argv[1], &end, 10);
		if (end == argv[1] || *end) {
			fprintf(stderr, "sh: exit: %s: not a number\n", argv[1]);
			code = 2;
		}
	}
	exit(code & 0xff);
}

static int
builtin_echo(int argc, char **argv)
{
	echo_words(argc, argv);
	return 0;
}

/*
 * exec CMD [ARG...]: the shell becomes CMD, in its own process, as a
 * debugger's `sh -c 'exec PROGRAM'` expects (gdb counts that one execve).
 * Its redirections were applied to the shell first (redirects_shell).
 */
static int
builtin_exec(int argc, char **argv)
{
	if (argc < 2)
		return 0;
	fflush(NULL);
	exec_command(argv + 1);
}

/* Builtins share one signature; help takes no arguments. */
static int builtin_help(int argc __attribute__((unused)), char **argv __attribute__((unused)));

struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
	bool in_shell; /* changes the shell itself: never forked; writes nothing to stdout */
	const char *usage, *what; /* for help */
	bool redirects_shell;	  /* in_shell, and its redirections are the shell's own */
};

static const struct builtin builtins[] = {
	{ "cd", builtin_cd, true, "cd [DIR]", "change directory ($HOME, else /)", false },
	{ "echo", builtin_echo, false, "echo [-n] [WORD...]", "print the words", false },
	{ "exec", builtin_exec, true, "exec CMD [ARG...]", "replace the shell with CMD", true },
	{ "exit", builtin_exit, true, "exit [N]", "leave the shell with status N (else $?)",
	  false },
	{ "help", builtin_help, false, "help", "this list", false },
	{ "knob", knob_command, false, "knob [NAME [VALUE]]",
	  "list the kernel's knobs, show one, or set one at run time (/proc/sys/rewind/)", false },
};

static int
builtin_help(int argc __attribute__((unused)), char **argv __attribute__((unused)))
{
	printf("built-in commands:\n");
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		printf("  %-22s %s\n", builtins[i].usage, builtins[i].what);
	printf("  %-22s %s\n", "time PIPELINE", "run it, then print real, user and sys seconds");
	printf("other commands are programs in $PATH: ls /bin\n");
	return 0;
}

/* A forked builtin's status: its own, or 1 if what it wrote could not be written. */
static int
run_forked_builtin(const struct builtin *b, int argc, char **argv)
{
	char who[32];
	int status = b->fn(argc, argv);

	snprintf(who, sizeof(who), "sh: %s", b->name);
	if (report_write_error(who) && !status)
		status = 1;
	return status;
}

static const struct builtin *
find_builtin(const struct cmd *c)
{
	for (size_t i = 0; c->argc && i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(c->argv[0], builtins[i].name))
			return &builtins[i];
	return NULL;
}

/* --- pipelines, continued ------------------------------------------------- */

/* The child side of one pipeline stage: wire up fds, then become the command. */
static void __attribute__((noreturn)) run_child(struct cmd *c, int in_fd, int out_fd)
{
	const struct builtin *b = find_builtin(c);

	if (owns_terminal)
		for (size_t i = 0; i < sizeof(shell_ignores) / sizeof(shell_ignores[0]); i++)
			signal(shell_ignores[i], SIG_DFL);
	if (in_fd >= 0)
		dup2(in_fd, STDIN_FILENO);
	if (out_fd >= 0)
		dup2(out_fd, STDOUT_FILENO);
	/* Redirections come after the pipe, so `a > f | b` writes f. */
	if (apply_redirections(c) < 0)
		_exit(1);
	if (!c->argc)
		_exit(0);
	if (b)
		exit(run_forked_builtin(b, c->argc, c->argv));
	exec_command(c->argv);
}

static void
add_rusage(struct rusage *sum, const struct rusage *r)
{
	timeradd(&sum->ru_utime, &r->ru_utime, &sum->ru_utime);
	timeradd(&sum->ru_stime, &r->ru_stime, &sum->ru_stime);
}

/* Exit code or 128 + signal; a killed program is also named. */
static int
decode_status(const struct cmd *c, int status)
{
	if (!WIFSIGNALED(status))
		return WEXITSTATUS(status);
	if (WTERMSIG(status) != SIGPIPE)
		fprintf(stderr, "sh: %s: %s\n", c->argv[0], strsignal(WTERMSIG(status)));
	return 128 + WTERMSIG(status);
}

/*
 * Forks one process per stage, connected by pipes, and waits for all of
 * them; the pipeline's status is the last stage's. The pipes are
 * close-on-exec and the shell closes its copies as it goes, so each
 * reader sees end-of-file as soon as its writer is done.
 */
static int
run_processes(struct pipeline *pl, struct rusage *usage)
{
	pid_t pids[MAX_CMDS];
	int started = 0, in_fd = -1, status = 1;

	for (int i = 0; i < pl->n; i++) {
		int p[2] = { -1, -1 };

		if (i < pl->n - 1 && pipe2(p, O_CLOEXEC) < 0) {
			fprintf(stderr, "sh: pipe: %s\n", strerror(errno));
			break;
		}
		fflush(NULL);
		pids[i] = fork();
		if (pids[i] == 0) {
			if (owns_terminal)
				setpgid(0, i ? pids[0] : 0);
			run_child(&pl->cmd[i], in_fd, p[1]);
		}
		/* Both sides set the group, so that it exists whichever runs first. */
		if (owns_terminal && pids[i] > 0) {
			setpgid(pids[i], pids[0]);
			if (i == 0)
				tcsetpgrp(STDIN_FILENO, pids[0]);
		}
		if (in_fd >= 0)
			close(in_fd);
		if (p[1] >= 0)
			close(p[1]);
		in_fd = p[0];
		if (pids[i] < 0) {
			fprintf(stderr, "sh: fork: %s\n", strerror(errno));
			break;
		}
		started++;
	}
	if (in_fd >= 0)
		close(in_fd);
	for (int i = 0; i < started; i++) {
		struct rusage r;
		int st;

		for (;;) {
			if (wait4(pids[i], &st, WUNTRACED, &r) < 0) {
				if (errno == EINTR)
					continue;
				return 1;
			}
			if (!WIFSTOPPED(st))
				break;
			fprintf(stderr, "\nsh: no job control in this shell: continuing\n");
			kill(-pids[0], SIGCONT);
		}
		add_rusage(usage, &r);
		if (i == pl->n - 1)
			status = decode_status(&pl->cmd[i], st);
	}
	if (owns_terminal)
		tcsetpgrp(STDIN_FILENO, getpgrp());
	return status;
}

static long long
elapsed_us(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000000LL + (t1.tv_nsec - t0->tv_nsec) / 1000;
}

static void
print_seconds(const char *label, long long us)
{
	fprintf(stderr, "%s %lld.%02lld\n", label, us / 1000000, us % 1000000 / 10000);
}

static long long
timeval_us(const struct timeval *tv)
{
	return tv->tv_sec * 1000000LL + tv->tv_usec;
}

static int
run_pipeline(struct pipeline *pl)
{
	struct rusage usage = { 0 };
	struct timespec t0;
	const struct builtin *b = pl->n == 1 ? find_builtin(&pl->cmd[0]) : NULL;
	int status = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pl->n == 1 && (pl->cmd[0].argc == 0 || (b && b->in_shell))) {
		if (b && b->redirects_shell)
			status = apply_redirections(&pl->cmd[0]) < 0 ? 1 : 0;
		else
			status = touch_redirections(&pl->cmd[0]) < 0 ? 1 : 0;
		if (!status && b)
			status = b->fn(pl->cmd[0].argc, pl->cmd[0].argv);
	} else if (pl->n > 0) {
		status = run_processes(pl, &usage);
	}
	if (pl->timed) {
		print_seconds("real", elapsed_us(&t0));
		print_seconds("user", timeval_us(&usage.ru_utime));
		print_seconds("sys", timeval_us(&usage.ru_stime));
	}
	return status;
}

/* --- the command loop ----------------------------------------------------- */

/*
 * Runs a line (or a -c string) pipeline by pipeline. `a && b` runs b only
 * if the status so far is 0, `a || b` only if it is not; a skipped
 * pipeline keeps the status, so `false && x || y` runs y.
 */
static void
run_text(const char *text)
{
	static struct lexer lx;
	static struct pipeline pl;
	enum token joined = T_SEP, end = T_SEP;

	lx.p = text;
	while (end != T_END) {
		if (parse_pipeline(&lx, &pl, &end) < 0) {
			last_status = 2;
			return;
		}
		bool empty = pl.n == 0 && !pl.timed;

		if (empty && (joined == T_AND || joined == T_OR)) {
			syntax_error(joined);
			last_status = 2;
			return;
		}
		if (!empty && !(joined == T_AND && last_status) &&
		    !(joined == T_OR && !last_status))
			last_status = run_pipeline(&pl);
		joined = end;
	}
}

static int
run_input(int fd, bool interactive)
{
	char line[MAX_LINE];
	ssize_t n;

	for (;;) {
		if (interactive)
			fputs("rewind$ ", stderr);
		n = read_line(fd, line, sizeof(line));
		if (n == -1)
			break;
		if (n == -2) {
			fprintf(stderr, "sh: line longer than %d bytes ignored\n", MAX_LINE - 1);
			last_status = 2;
			continue;
		}
		run_text(line);
	}
	if (interactive)
		fputc('\n', stderr);
	return last_status;
}

int
main(int argc, char **argv)
{
	int fd;

	if (argc > 1 && !strcmp(argv[1], "-c")) {
		if (argc < 3) {
			fprintf(stderr, "sh: -c needs a command string\n");
			return 2;
		}
		run_text(argv[2]);
		return last_status;
	}
	if (argc > 1) {
		fd = open(argv[1], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "sh: %s: %s\n", argv[1], strerror(errno));
			return 127;
		}
		return run_input(fd, false);
	}
	bool interactive = is_tty(STDIN_FILENO);
	owns_terminal = interactive && tcgetpgrp(STDIN_FILENO) == getpgrp();
	if (owns_terminal)
		for (size_t i = 0; i < sizeof(shell_ignores) / sizeof(shell_ignores[0]); i++)
			signal(shell_ignores[i], SIG_IGN);
	return run_input(STDIN_FILENO, interactive);
}
