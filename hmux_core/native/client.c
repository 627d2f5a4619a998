/*
 * The hmux client for commands, in C: what `hmux list-sessions` or a tool's `tmux send-keys`
 * runs, without starting Python.
 *
 * A command to a running server is a few messages: identify, the command, the server's file
 * requests (stdout, stderr, stdin, files), the exit. hmux_core/client.py does the same in
 * Python, but a Python process costs 8 ms or more before its first line runs, and tools such as
 * libtmux and tmuxp run thousands of commands. setup.py builds this file into the installed
 * `hmux` when a C compiler is there (else `hmux` is the Python script).
 *
 * Everything else is the Python client's, which this program becomes with the same arguments
 * (exec, never a child): starting a server, attaching, control mode, hmux's own subcommands,
 * any flag or socket problem it would have to explain. So this file keeps no second copy of
 * any message or decision a user could see, except the few a command's exchange makes, `-V`,
 * and the answer to a command when no server runs (tools ask both before anything else).
 *
 * One start is done here: `new-session` or `start-server` with no server, when a fork server
 * (hmux_core/forkserver.py) that a Python client of this very program left in the socket's
 * directory is there to fork the server. Tools that start a server per test (libtmux) then
 * never start Python for a command; with no fork server, the Python client starts it as before.
 *
 * Run as `tmux` (a symlink named tmux, written by `hmux doctor --install-shim`), it is the tmux
 * shim: tmux's socket directory, and hmux's own subcommands go to the server.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef HMUX_PYTHON
#define HMUX_PYTHON "python3" /* build.py names the interpreter that compiled it */
#endif

/* Found by tmux_shim.install in a file it may replace (the Python shim carries it as text). */
static const char marker[] __attribute__((used)) = "# hmux tmux shim";

extern char **environ;

enum {
    PROTOCOL_VERSION = 8,
    HEADER = 16,
    MAX_IMSG = 16384,
    MAX_PAYLOAD = MAX_IMSG - HEADER,
    MAX_STREAM_DATA = MAX_PAYLOAD - 4,

    MSG_VERSION = 12,
    MSG_IDENTIFY_FLAGS = 100,
    MSG_IDENTIFY_TERM = 101,
    MSG_IDENTIFY_TTYNAME = 102,
    MSG_IDENTIFY_STDIN = 104,
    MSG_IDENTIFY_ENVIRON = 105,
    MSG_IDENTIFY_DONE = 106,
    MSG_IDENTIFY_CLIENTPID = 107,
    MSG_IDENTIFY_CWD = 108,
    MSG_IDENTIFY_FEATURES = 109,
    MSG_IDENTIFY_STDOUT = 110,
    MSG_IDENTIFY_LONGFLAGS = 111,
    MSG_COMMAND = 200,
    MSG_DETACH = 201,
    MSG_DETACHKILL = 202,
    MSG_EXIT = 203,
    MSG_EXITED = 204,
    MSG_EXITING = 205,
    MSG_READY = 207,
    MSG_RESIZE = 208,
    MSG_SHUTDOWN = 210,
    MSG_OLDSTDERR = 211,
    MSG_OLDSTDIN = 212,
    MSG_OLDSTDOUT = 213,
    MSG_FLAGS = 218,
    MSG_READ_OPEN = 300,
    MSG_READ = 301,
    MSG_READ_DONE = 302,
    MSG_WRITE_OPEN = 303,
    MSG_WRITE = 304,
    MSG_WRITE_READY = 305,
    MSG_WRITE_CLOSE = 306,
    MSG_READ_CANCEL = 307,
};

#define CLIENT_LOGIN 0x2ULL
#define CLIENT_NOSTARTSERVER 0x1000ULL
#define CLIENT_CONTROL 0x2000ULL
#define CLIENT_UTF8 0x10000ULL
#define CLIENT_DEFAULTSOCKET 0x8000000ULL
#define CLIENT_STARTSERVER 0x10000000ULL
#define FD_MARK 0x80000000U /* tmux 3.6+'s IMSG_FD_MARK: this frame's fd is in its sendmsg */

static char **saved_argv;
static int tmux_mode;

/* ---- becoming the Python client ------------------------------------------------------------ */

/* The directory this program is in (symlinks resolved: the shim is one), with a slash. */
static int own_directory(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0)
        return 0;
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (slash == NULL)
        return 0;
    slash[1] = '\0';
    return 1;
}

/* The interpreter named on the `#!` line of the hmux-tmux script installed beside this
 * program. The installer wrote that line for the Python hmux was installed into, so it is
 * right even for a wheel built with another interpreter than the one named at compile time. */
static int installed_python(char *out, size_t size)
{
    char path[PATH_MAX];
    if (!own_directory(path, sizeof path - 16))
        return 0;
    strcat(path, "hmux-tmux");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char line[PATH_MAX + 2];
    ssize_t got = read(fd, line, sizeof line - 1);
    close(fd);
    if (got < 3 || line[0] != '#' || line[1] != '!' || line[2] != '/')
        return 0;
    line[got] = '\0';
    size_t len = strcspn(line + 2, " \t\r\n");
    if (len >= size)
        return 0;
    memcpy(out, line + 2, len);
    out[len] = '\0';
    /* Not the `#!/bin/sh` form pip writes for a path a `#!` line cannot hold. */
    return strstr(strrchr(out, '/'), "python") != NULL;
}

/* The name a fork server started by our Python client also listens on in its directory
 * (forkserver.py's NATIVE_ENV): a hash of this program's inode and mtime, so another install
 * or a rebuilt client finds none. As short as the fork server's own name: a socket's path
 * has a limit. */
static int native_name(char *out, size_t size)
{
    struct stat st;
    if (stat("/proc/self/exe", &st) != 0)
        return 0;
    uint64_t parts[2] = {(uint64_t)st.st_ino,
                         (uint64_t)st.st_mtim.tv_sec * 1000000000ULL + (uint64_t)st.st_mtim.tv_nsec};
    const unsigned char *p = (const unsigned char *)parts;
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (size_t i = 0; i < sizeof parts; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return (size_t)snprintf(out, size, ".hmux-native-%016llx", (unsigned long long)h) < size;
}

/* exec the Python client with our own argv: never returns. */
static void __attribute__((noreturn)) python_client(void)
{
    char name[64];
    if (native_name(name, sizeof name)) /* taken out of the environment at once by cli.main */
        setenv("HMUX_NATIVE_CLIENT", name, 1);
    static const char boot_hmux[] =
        "import sys; del sys.argv[0]; from hmux_core.cli import main; sys.exit(main())";
    static const char boot_tmux[] =
        "import sys; del sys.argv[0]; from hmux_core.tmux_shim import main; sys.exit(main())";
    int argc = 0;
    while (saved_argv[argc] != NULL)
        argc++;
    /* python -P -c BOOT argv0 args...: sys.argv is then ['-c', argv0, args...], and BOOT drops
     * the '-c' so the client sees its own argv[0] (a login shell's leading '-' included). */
    char **args = calloc((size_t)argc + 5, sizeof *args);
    if (args == NULL)
        _exit(1);
    args[1] = "-P";
    args[2] = "-c";
    args[3] = (char *)(tmux_mode ? boot_tmux : boot_hmux);
    for (int i = 0; i < argc; i++)
        args[4 + i] = saved_argv[i];

    signal(SIGPIPE, SIG_DFL); /* as it was given to us: an ignored signal stays so across exec */
    /* The installed interpreter, then the one setup.py compiled in, then python3 beside this
     * program (a venv's bin), then on PATH. */
    char python[PATH_MAX];
    if (installed_python(python, sizeof python)) {
        args[0] = python;
        execv(args[0], args);
    }
    args[0] = HMUX_PYTHON;
    execv(args[0], args);
    if (own_directory(python, sizeof python - 16)) {
        strcat(python, "python3");
        args[0] = python;
        execv(args[0], args);
    }
    args[0] = "python3";
    execvp(args[0], args);
    fprintf(stderr, "hmux: cannot run Python (%s): %s\n", HMUX_PYTHON, strerror(errno));
    _exit(1);
}

/* ---- the command line ---------------------------------------------------------------------- */

struct options {
    const char *socket_path; /* -S */
    const char *label;       /* -L */
    uint64_t flags;
    const char *config[8]; /* -f: the files a server started here reads */
    int nconfig;
    int version; /* -V */
    char **rest; /* the command and its arguments */
    int nrest;
};

/* tmux's getopt over "2c:CDdf:hlL:NqS:T:uUvV"; the flags only the Python client acts on (or
 * whose errors it reports) send us there. */
static void parse_options(int argc, char **argv, struct options *o)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (arg[0] != '-' || arg[1] == '\0')
            break;
        for (int j = 1; arg[j] != '\0'; j++) {
            char ch = arg[j];
            if (ch == 'S' || ch == 'L' || ch == 'f') {
                const char *value = arg[j + 1] != '\0' ? arg + j + 1 : argv[++i];
                if (value == NULL)
                    python_client(); /* "option requires an argument" */
                if (ch == 'S')
                    o->socket_path = value;
                else if (ch == 'L')
                    o->label = value;
                else if (o->nconfig < (int)(sizeof o->config / sizeof o->config[0]))
                    o->config[o->nconfig++] = value; /* matters only to a server started */
                else
                    python_client();
                break;
            }
            if (ch == 'u')
                o->flags |= CLIENT_UTF8;
#ifdef HMUX_TMUX_VERSION
            else if (ch == 'V')
                o->version = 1; /* after the other options, as getopt errs first */
#endif
            else if (ch == 'N')
                o->flags |= CLIENT_NOSTARTSERVER;
            else if (ch != '2' && ch != 'd' && ch != 'q' && ch != 'U')
                python_client(); /* -c -C -D -h -l -T -v -V, and unknown options */
        }
    }
    o->rest = argv + i;
    o->nrest = argc - i;
}

/* Commands that can never attach this client or run commands in its place: when stdin is a
 * terminal, anything else goes to the Python client, which can attach. (With stdin not a
 * terminal the server refuses to attach, so every command may be run here.) */
static const char *const terminal_safe[] = {
    "bind-key", "bind", "break-pane", "breakp", "capture-pane", "capturep", "choose-buffer",
    "choose-client", "choose-tree", "clear-history", "clearhist", "clear-prompt-history",
    "clearphist", "clock-mode", "copy-mode", "customize-mode", "delete-buffer", "deleteb",
    "detach-client", "detach", "display-menu", "menu", "display-message", "display",
    "display-popup", "popup", "display-panes", "displayp", "find-window", "findw",
    "has-session", "has", "join-pane", "joinp", "kill-pane", "killp", "kill-server",
    "kill-session", "kill-window", "killw", "last-pane", "lastp", "last-window", "last",
    "link-window", "linkw", "list-buffers", "lsb", "list-clients", "lsc", "list-commands",
    "lscm", "list-keys", "lsk", "list-panes", "lsp", "list-sessions", "ls", "list-windows",
    "lsw", "load-buffer", "loadb", "move-pane", "movep", "move-window", "movew", "new-pane",
    "newp", "new-window", "neww", "next-layout", "nextl", "next-window", "next", "paste-buffer",
    "pasteb", "pipe-pane", "pipep", "previous-layout", "prevl", "previous-window", "prev",
    "refresh-client", "refresh", "rename-session", "rename", "rename-window", "renamew",
    "resize-pane", "resizep", "resize-window", "resizew", "respawn-pane", "respawnp",
    "respawn-window", "respawnw", "rotate-window", "rotatew", "save-buffer", "saveb",
    "select-layout", "selectl", "select-pane", "selectp", "select-window", "selectw",
    "send-keys", "send", "send-prefix", "server-access", "set-buffer", "setb",
    "set-environment", "setenv", "set-hook", "set-option", "set", "set-window-option", "setw",
    "show-buffer", "showb", "show-environment", "showenv", "show-hooks", "show-messages",
    "showmsgs", "show-options", "show", "show-prompt-history", "showphist",
    "show-window-options", "showw", "split-window", "splitw", "start-server", "start",
    "swap-pane", "swapp", "swap-window", "swapw", "switch-client", "switchc", "unbind-key",
    "unbind", "unlink-window", "unlinkw", "wait-for", "wait", NULL,
};

static int terminal_safe_name(const char *name)
{
    for (const char *const *p = terminal_safe; *p != NULL; p++) {
        if (strcmp(*p, name) == 0)
            return 1;
    }
    return 0;
}

/* Every command of the chain is a full name or alias on the list. An argument ending in ';'
 * ends a command (a separator the server may read otherwise only makes a word after it count
 * as a name, which errs towards the Python client). */
static int commands_terminal_safe(char **rest, int n)
{
    int expect_name = 1;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(rest[i]);
        if (expect_name && !terminal_safe_name(rest[i]))
            return 0;
        expect_name = len > 0 && rest[i][len - 1] == ';';
    }
    return 1;
}

/* ---- the socket ---------------------------------------------------------------------------- */

/* paths.resolve_socket: -S, then -L, then $TMUX's path, then the label "default" in
 * ${TMUX_TMPDIR:-/tmp}/hmux-UID (tmux-UID as tmux). Any trouble is the Python client's to
 * report, so this only ever succeeds or execs it. */
static void resolve_socket(struct options *o, char *out, size_t size)
{
    if (o->socket_path != NULL && o->socket_path[0] != '\0') {
        if ((size_t)snprintf(out, size, "%s", o->socket_path) >= size)
            python_client();
        return;
    }
    const char *label = o->label;
    if (label == NULL || label[0] == '\0') {
        const char *tmux = getenv("TMUX");
        if (tmux != NULL && tmux[0] != '\0' && tmux[0] != ',') {
            size_t len = strcspn(tmux, ",");
            if (len >= size)
                python_client();
            memcpy(out, tmux, len);
            out[len] = '\0';
            return;
        }
        label = "default";
    }
    if (strchr(label, '/') != NULL)
        python_client();
    char base[PATH_MAX];
    const char *tmpdir = getenv("TMUX_TMPDIR");
    if ((tmpdir == NULL || tmpdir[0] == '\0' || realpath(tmpdir, base) == NULL) &&
        realpath("/tmp", base) == NULL)
        python_client();
    char dir[PATH_MAX];
    uid_t uid = getuid();
    if ((size_t)snprintf(dir, sizeof dir, "%s/%s-%lu", base, tmux_mode ? "tmux" : "hmux",
                         (unsigned long)uid) >= sizeof dir)
        python_client();
    struct stat st;
    if ((mkdir(dir, 0700) != 0 && errno != EEXIST) || lstat(dir, &st) != 0 ||
        !S_ISDIR(st.st_mode) || st.st_uid != uid || (st.st_mode & S_IRWXO) != 0)
        python_client();
    if ((size_t)snprintf(out, size, "%s/%s", dir, label) >= size)
        python_client();
    o->flags |= CLIENT_DEFAULTSOCKET;
}

/* ---- frames -------------------------------------------------------------------------------- */

struct buf {
    char *data;
    size_t len, cap;
};

static void buf_add(struct buf *b, const void *data, size_t len)
{
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (grown == NULL) {
            fputs("hmux: out of memory\n", stderr);
            exit(1);
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

static void header(struct buf *b, uint32_t type, size_t payload, uint32_t fd_mark)
{
    uint32_t h[4] = {type, (uint32_t)(HEADER + payload) | fd_mark, PROTOCOL_VERSION, 0xFFFFFFFFU};
    buf_add(b, h, sizeof h);
}

static void frame(struct buf *b, uint32_t type, const void *data, size_t len)
{
    header(b, type, len, 0);
    buf_add(b, data, len);
}

static void frame_string(struct buf *b, uint32_t type, const char *s)
{
    frame(b, type, s, strlen(s) + 1);
}

static void frame_int(struct buf *b, uint32_t type, int32_t value)
{
    frame(b, type, &value, sizeof value);
}

static void frame_ints(struct buf *b, uint32_t type, int32_t one, int32_t two)
{
    int32_t v[2] = {one, two};
    frame(b, type, v, sizeof v);
}

/* ---- the exchange -------------------------------------------------------------------------- */

struct reader {
    int fd, stream;
};

static struct client {
    int sock;
    int refused; /* the server closed on us while we sent: read what it said, send no more */
    uint64_t flags;
    int exitval;
    int done;
    char *exit_reason;
    int files[64][2]; /* stream -> fd we write to */
    int nfiles;
    int std_taken[3];
    struct reader reading[16];
    int nreading;
} c;

static void send_all(const char *data, size_t len)
{
    while (len > 0 && !c.refused) {
        ssize_t n = send(c.sock, data, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd p = {c.sock, POLLOUT, 0};
                poll(&p, 1, -1);
                continue;
            }
            c.refused = 1; /* EPIPE, ECONNRESET: what it sent before closing is still to read */
            return;
        }
        data += n;
        len -= (size_t)n;
    }
}

static void send_frame(struct buf *b)
{
    send_all(b->data, b->len);
    b->len = 0;
}

/* One sendmsg of `data` carrying `nfds` (at most 2) fds in SCM_RIGHTS, retried on EINTR:
 * sendmsg's result. */
static ssize_t send_with_fds(int sock, const void *data, size_t len, const int *fds, size_t nfds)
{
    struct iovec iov = {(void *)data, len};
    union {
        struct cmsghdr align;
        char space[CMSG_SPACE(2 * sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.space;
    msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
    struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
    memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
    ssize_t sent;
    do
        sent = sendmsg(sock, &msg, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    return sent;
}

static void send_fd(uint32_t type, int fd)
{
    uint32_t h[4] = {type, HEADER | FD_MARK, PROTOCOL_VERSION, 0xFFFFFFFFU};
    if (!c.refused && send_with_fds(c.sock, h, sizeof h, &fd, 1) < 0)
        c.refused = 1;
}

static void identify(uint64_t flags, char **argv, int argc)
{
    struct buf b = {0};
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL) {
        const char *home = getenv("HOME");
        snprintf(cwd, sizeof cwd, "%s", home != NULL && home[0] != '\0' ? home : "/");
    }
    const char *term = getenv("TERM");
    const char *tty = ttyname(0);
    frame_int(&b, MSG_IDENTIFY_FLAGS, (int32_t)(flags & 0x7FFFFFFF));
    frame(&b, MSG_IDENTIFY_LONGFLAGS, &flags, sizeof flags);
    frame_string(&b, MSG_IDENTIFY_TERM, term != NULL ? term : "");
    frame_int(&b, MSG_IDENTIFY_FEATURES, 0);
    frame_string(&b, MSG_IDENTIFY_TTYNAME, tty != NULL ? tty : "");
    frame_string(&b, MSG_IDENTIFY_CWD, cwd);
    send_frame(&b);

    for (int stdfd = 0; stdfd < 2; stdfd++) {
        int fd = dup(stdfd);
        if (fd < 0)
            fd = open("/dev/null", O_RDWR);
        send_fd(stdfd == 0 ? MSG_IDENTIFY_STDIN : MSG_IDENTIFY_STDOUT, fd);
        if (fd >= 0)
            close(fd);
    }

    int32_t pid = (int32_t)getpid();
    frame(&b, MSG_IDENTIFY_CLIENTPID, &pid, sizeof pid);
    for (char **e = environ; *e != NULL; e++) {
        size_t len = strlen(*e) + 1;
        if (strchr(*e, '=') != NULL && len <= MAX_PAYLOAD)
            frame(&b, MSG_IDENTIFY_ENVIRON, *e, len);
    }
    frame(&b, MSG_IDENTIFY_DONE, NULL, 0);
    /* The command: struct msg_command { int argc; } and the NUL-terminated arguments. */
    size_t size = 4;
    for (int i = 0; i < argc; i++)
        size += strlen(argv[i]) + 1;
    int32_t n = argc;
    header(&b, MSG_COMMAND, size, 0);
    buf_add(&b, &n, sizeof n);
    for (int i = 0; i < argc; i++)
        buf_add(&b, argv[i], strlen(argv[i]) + 1);
    send_frame(&b);
    free(b.data);
}

static void reply(uint32_t type, int32_t stream, int32_t error)
{
    struct buf b = {0};
    frame_ints(&b, type, stream, error);
    send_frame(&b);
    free(b.data);
}

static void write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd p = {fd, POLLOUT, 0};
                poll(&p, 1, -1);
                continue;
            }
            return;
        }
        data += n;
        len -= (size_t)n;
    }
}

/* A string at the end of a payload (NUL-terminated, or running to its end). */
static char *payload_string(const char *data, size_t len)
{
    char *s = malloc(len + 1);
    if (s == NULL)
        exit(1);
    memcpy(s, data, len);
    s[len] = '\0';
    return s;
}

static void write_open(const char *data, size_t len)
{
    int32_t v[3];
    memcpy(v, data, sizeof v);
    int32_t stream = v[0], fd = v[1], flags = v[2], error = 0;
    if (c.nfiles == (int)(sizeof c.files / sizeof c.files[0])) {
        error = EMFILE;
    } else if (fd != -1) {
        if ((fd != 1 && fd != 2) || c.std_taken[fd] || (c.flags & CLIENT_CONTROL)) {
            error = EBADF;
        } else {
            c.std_taken[fd] = 1;
            c.files[c.nfiles][0] = stream;
            c.files[c.nfiles++][1] = fd;
        }
    } else {
        char *path = payload_string(data + 12, len - 12);
        int nfd = open(path, O_NONBLOCK | O_WRONLY | O_CREAT | flags, 0644);
        free(path);
        if (nfd < 0) {
            error = errno;
        } else {
            fcntl(nfd, F_SETFL, fcntl(nfd, F_GETFL) & ~O_NONBLOCK);
            c.files[c.nfiles][0] = stream;
            c.files[c.nfiles++][1] = nfd;
        }
    }
    reply(MSG_WRITE_READY, stream, error);
}

static void read_open(const char *data, size_t len)
{
    int32_t v[2];
    memcpy(v, data, sizeof v);
    int32_t stream = v[0], fd = v[1];
    int rfd;
    if (c.nreading == (int)(sizeof c.reading / sizeof c.reading[0])) {
        reply(MSG_READ_DONE, stream, EMFILE);
        return;
    }
    if (fd != -1) {
        if (fd != 0 || c.std_taken[0] || (c.flags & CLIENT_CONTROL)) {
            reply(MSG_READ_DONE, stream, EBADF);
            return;
        }
        c.std_taken[0] = 1;
        rfd = 0;
    } else {
        char *path = payload_string(data + 8, len - 8);
        rfd = open(path, O_RDONLY);
        free(path);
        if (rfd < 0) {
            reply(MSG_READ_DONE, stream, errno ? errno : EIO);
            return;
        }
    }
    c.reading[c.nreading].fd = rfd;
    c.reading[c.nreading++].stream = stream;
}

/* The end of a read (its end, an error, or the server's cancel). */
static void read_done(int i, int32_t error)
{
    struct reader r = c.reading[i];
    c.reading[i] = c.reading[--c.nreading];
    if (r.fd != 0)
        close(r.fd);
    reply(MSG_READ_DONE, r.stream, error);
}

static void read_some(int i)
{
    char chunk[HEADER + MAX_PAYLOAD];
    ssize_t n = read(c.reading[i].fd, chunk + HEADER + 4, MAX_STREAM_DATA);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        read_done(i, n < 0 ? EIO : 0);
        return;
    }
    uint32_t h[4] = {MSG_READ, (uint32_t)(HEADER + 4 + n), PROTOCOL_VERSION, 0xFFFFFFFFU};
    int32_t stream = c.reading[i].stream;
    memcpy(chunk, h, sizeof h);
    memcpy(chunk + HEADER, &stream, sizeof stream);
    send_all(chunk, HEADER + 4 + (size_t)n);
}

static void send_type(uint32_t type)
{
    struct buf b = {0};
    frame(&b, type, NULL, 0);
    send_frame(&b);
    free(b.data);
}

static int bad_size(const char *what)
{
    fprintf(stderr, "bad %s size\n", what);
    c.exitval = 1;
    c.done = 1;
    return -1;
}

static int dispatch(uint32_t type, uint32_t peerid, const char *data, size_t len)
{
    switch (type) {
    case MSG_VERSION:
        fprintf(stderr, "protocol version mismatch (client %d, server %u)\n", PROTOCOL_VERSION,
                peerid & 0xFF);
        c.exitval = 1;
        c.done = 1;
        break;
    case MSG_EXIT:
    case MSG_SHUTDOWN:
        if (type == MSG_EXIT) {
            if (len > 0 && len < 4)
                return bad_size("MSG_EXIT");
            if (len >= 4)
                memcpy(&c.exitval, data, 4);
            if (len > 4) {
                free(c.exit_reason);
                c.exit_reason = payload_string(data + 4, strnlen(data + 4, len - 4));
            }
        }
        c.done = 1;
        break;
    case MSG_READY:
        /* Attached. Not for this client: with stdin a terminal only commands that cannot
         * attach get here, and the server attaches no client whose stdin is not one. Should
         * it happen, leave at once rather than hold a session we cannot draw. */
        fputs("hmux: attached without a terminal\n", stderr);
        c.exitval = 1;
        send_type(MSG_EXITING);
        break;
    case MSG_FLAGS:
        if (len != 8)
            return bad_size("MSG_FLAGS");
        memcpy(&c.flags, data, 8);
        break;
    case MSG_DETACH:
    case MSG_DETACHKILL: /* client_dispatch_wait: no reason, no SIGHUP */
        send_type(MSG_EXITING);
        break;
    case MSG_EXITED:
        c.done = 1;
        break;
    case MSG_WRITE_OPEN:
        if (len < 12)
            return bad_size("MSG_WRITE_OPEN");
        write_open(data, len);
        break;
    case MSG_WRITE:
    case MSG_WRITE_CLOSE: {
        if (len < 4)
            return bad_size("stream payload");
        int32_t stream;
        memcpy(&stream, data, 4);
        for (int i = 0; i < c.nfiles; i++) {
            if (c.files[i][0] != stream)
                continue;
            if (type == MSG_WRITE) {
                write_all(c.files[i][1], data + 4, len - 4);
            } else {
                if (c.files[i][1] > 2)
                    close(c.files[i][1]);
                c.files[i][0] = c.files[c.nfiles - 1][0];
                c.files[i][1] = c.files[--c.nfiles][1];
            }
            break;
        }
        break;
    }
    case MSG_READ_OPEN:
        if (len < 8)
            return bad_size("MSG_READ_OPEN");
        read_open(data, len);
        break;
    case MSG_READ_CANCEL: {
        if (len < 4)
            return bad_size("stream payload");
        int32_t stream;
        memcpy(&stream, data, 4);
        for (int i = c.nreading - 1; i >= 0; i--) {
            if (c.reading[i].stream == stream)
                read_done(i, 0);
        }
        break;
    }
    case MSG_OLDSTDERR:
    case MSG_OLDSTDIN:
    case MSG_OLDSTDOUT:
        fputs("server version is too old for client\n", stderr);
        c.done = 1;
        break;
    default:
        break;
    }
    return 0;
}

static volatile sig_atomic_t terminated;

static void on_signal(int sig)
{
    if (sig == SIGTERM || sig == SIGHUP)
        terminated = 1;
}

static int run(void)
{
    static char in[2 * MAX_IMSG + 4096];
    size_t have = 0;

    /* SIGTERM and SIGHUP end a command's wait (tmux's proc_exit, with the value so far); SIGINT
     * is ignored, as tmux's client ignores it. They are blocked outside ppoll so none is lost. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &old);

    while (!c.done) {
        struct pollfd p[1 + sizeof c.reading / sizeof c.reading[0]];
        p[0].fd = c.sock;
        p[0].events = POLLIN;
        for (int i = 0; i < c.nreading; i++) {
            p[1 + i].fd = c.reading[i].fd;
            p[1 + i].events = POLLIN;
        }
        int nreading = c.nreading;
        int n = ppoll(p, 1 + (nfds_t)nreading, NULL, &old);
        if (terminated)
            return c.exitval;
        if (n < 0)
            continue;
        for (int i = nreading - 1; i >= 0; i--) {
            if (p[1 + i].revents != 0 && i < c.nreading && c.reading[i].fd == p[1 + i].fd)
                read_some(i);
        }
        if (p[0].revents == 0)
            continue;

        char control[CMSG_SPACE(16 * sizeof(int))];
        struct iovec iov = {in + have, sizeof in - have};
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        ssize_t got = recvmsg(c.sock, &msg, MSG_CMSG_CLOEXEC);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm != NULL; cm = CMSG_NXTHDR(&msg, cm)) {
            if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
                size_t nfd = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                for (size_t i = 0; i < nfd; i++) {
                    int fd;
                    memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
                    close(fd); /* the server sends us none; never leak one */
                }
            }
        }
        if (got <= 0) {
            free(c.exit_reason);
            c.exit_reason = strdup("server exited unexpectedly");
            c.exitval = 1;
            break;
        }
        have += (size_t)got;
        size_t pos = 0;
        while (have - pos >= HEADER && !c.done) {
            uint32_t h[4];
            memcpy(h, in + pos, sizeof h);
            uint32_t length = h[1] & 0xFFFF;
            if (length < HEADER || length > MAX_IMSG || (h[1] & 0x7FFE0000U) != 0) {
                fprintf(stderr, "bad frame length %#x\n", h[1]);
                return 1;
            }
            if (have - pos < length)
                break;
            if (dispatch(h[0], h[2], in + pos + HEADER, length - HEADER) < 0)
                break;
            pos += length;
        }
        memmove(in, in + pos, have - pos);
        have -= pos;
    }
    return c.exitval;
}

/* ---- starting a server through the fork server --------------------------------------------- */

/* A command the Python client would start a server for, by its full name or alias (it also
 * takes unique prefixes, and attach-session, list-commands and list-keys: those go to it).
 * Commands are split as client.py's _needs_server_start splits them. */
static int starts_server(char **rest, int n)
{
    static const char *const names[] = {"new-session", "new", "start-server", "start", NULL};
    int expect_name = 1;
    for (int i = 0; i < n; i++) {
        if (expect_name) {
            for (const char *const *p = names; *p != NULL; p++) {
                if (strcmp(*p, rest[i]) == 0)
                    return 1;
            }
            expect_name = 0;
        }
        size_t len = strlen(rest[i]);
        if (strcmp(rest[i], ";") == 0 ||
            (len >= 2 && strcmp(rest[i] + len - 2, "\\;") == 0 &&
             !(len >= 3 && rest[i][len - 3] == '\\')))
            expect_name = 1;
    }
    return 0;
}

static int connect_to(const char *path)
{
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return -1;
    if (connect(s, (struct sockaddr *)&sa, sizeof sa) != 0) {
        int saved = errno;
        close(s);
        errno = saved;
        return -1;
    }
    return s;
}

/* Ask the fork server at `alias` for a server on `path` whose first client is the socketpair
 * end we keep: forkserver.py's request, marked as ours (it then checks the interpreter's
 * settings in our environment are its own). Returns that end, or -1 (nothing was started). */
static int fork_server_start(const char *alias, const struct options *o, const char *path,
                             const char *lockpath, int lockfd)
{
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
        return -1;
    int fs = connect_to(alias);
    if (fs < 0) {
        close(pair[0]);
        close(pair[1]);
        return -1;
    }
    char cwd[PATH_MAX], mask[16], flags[32];
    if (getcwd(cwd, sizeof cwd) == NULL)
        strcpy(cwd, "/");
    mode_t m = umask(0);
    umask(m);
    snprintf(mask, sizeof mask, "%u", (unsigned)m);
    snprintf(flags, sizeof flags, "%llu", (unsigned long long)(o->flags | CLIENT_STARTSERVER));
    /* client.py's _start_server: -f for each file given, else tmux's files as `tmux`. */
    const char *args[6 + 2 * (sizeof o->config / sizeof o->config[0])] = {
        "--socket", path, "--flags", flags, "--lock-file", lockpath};
    int nargs = 6;
    for (int i = 0; i < o->nconfig; i++) {
        args[nargs++] = "-f";
        args[nargs++] = o->config[i];
    }
    if (o->nconfig == 0 && tmux_mode)
        args[nargs++] = "--tmux-config";
    char count[8];
    snprintf(count, sizeof count, "%d", nargs);

    struct buf b = {0};
    uint32_t size = 0;
    buf_add(&b, &size, sizeof size);
    buf_add(&b, "native", 7);
    buf_add(&b, cwd, strlen(cwd) + 1);
    buf_add(&b, mask, strlen(mask) + 1);
    buf_add(&b, count, strlen(count) + 1);
    for (int i = 0; i < nargs; i++)
        buf_add(&b, args[i], strlen(args[i]) + 1);
    for (char **e = environ; *e != NULL; e++) {
        if (strchr(*e, '=') != NULL)
            buf_add(&b, *e, strlen(*e) + 1);
    }
    size = (uint32_t)(b.len - sizeof size);
    memcpy(b.data, &size, sizeof size);

    int fds[2] = {pair[1], lockfd};
    int ok = 0;
    ssize_t sent = send_with_fds(fs, b.data, b.len, fds, 2);
    size_t done = sent > 0 ? (size_t)sent : 0;
    while (sent > 0 && done < b.len) {
        ssize_t n = send(fs, b.data + done, b.len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (done == b.len) {
        /* As client.py: a fork server still importing answers when it is done; one silent
         * for 10 s is broken, and the Python client starts the server instead. */
        struct pollfd p = {fs, POLLIN, 0};
        char answer = 0;
        if (poll(&p, 1, 10000) == 1 && recv(fs, &answer, 1, 0) == 1 && answer == 1)
            ok = 1;
    }
    free(b.data);
    close(fs);
    close(pair[1]);
    if (!ok) {
        close(pair[0]);
        return -1;
    }
    return pair[0];
}

/* No server answers at `path` and the command would start one: have the fork server start it
 * (as client.py's connect does, under the start lock, which travels with the request) and
 * return the socket to it, already connected; or become the Python client, which starts it
 * or says why not. */
static int start_server(const struct options *o, const char *path)
{
    const char *setting = getenv("HMUX_FORKSERVER");
    if (setting != NULL && setting[0] != '\0') { /* 0 is off; what is not a number, Python's */
        char *end;
        double idle = strtod(setting, &end);
        if (end == setting || *end != '\0' || !(idle > 0))
            python_client();
    }
    /* forkserver.socket_for: only in a private directory of ours. */
    char dir[PATH_MAX], name[64], alias[sizeof ((struct sockaddr_un *)0)->sun_path];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir)
        python_client();
    *slash = '\0';
    struct stat st;
    if (stat(dir, &st) != 0 || st.st_uid != getuid() || (st.st_mode & 077) != 0 ||
        !native_name(name, sizeof name) ||
        (size_t)snprintf(alias, sizeof alias, "%s/%s", dir, name) >= sizeof alias ||
        lstat(alias, &st) != 0)
        python_client(); /* no fork server of ours (yet): the Python client starts one */

    char lockpath[PATH_MAX];
    if ((size_t)snprintf(lockpath, sizeof lockpath, "%s.lock", path) >= sizeof lockpath)
        python_client();
    for (;;) {
        int lockfd = open(lockpath, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (lockfd < 0)
            python_client();
        if (flock(lockfd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK)
                python_client();
            /* Another client is starting it: wait for it, then connect again. */
            while (flock(lockfd, LOCK_EX) != 0 && errno == EINTR)
                ;
            close(lockfd);
            int s = connect_to(path);
            if (s >= 0)
                return s;
            if (errno != ENOENT && errno != ECONNREFUSED)
                python_client();
            continue;
        }
        int s = connect_to(path);
        if (s >= 0) {
            close(lockfd);
            return s;
        }
        if (errno != ENOENT && errno != ECONNREFUSED)
            python_client();
        unlink(path);
        s = fork_server_start(alias, o, path, lockpath, lockfd);
        close(lockfd);
        if (s < 0)
            python_client();
        return s;
    }
}

int main(int argc, char **argv)
{
    saved_argv = argv;
    /* A reader that goes away (`hmux list-keys | head -1`) is a write error, not a death by
     * SIGPIPE: tmux's client ignores it, and so does Python. */
    signal(SIGPIPE, SIG_IGN);
    const char *name = strrchr(argv[0], '/');
    name = name != NULL ? name + 1 : argv[0];
    tmux_mode = strcmp(name, "tmux") == 0;

    struct options o = {0};
    if (argv[0][0] == '-')
        o.flags |= CLIENT_LOGIN;
    parse_options(argc, argv, &o);
#ifdef HMUX_TMUX_VERSION
    if (o.version) { /* cli.py's -V: tools ask it before anything else (libtmux, per test) */
        puts("tmux " HMUX_TMUX_VERSION);
        return 0;
    }
#endif
    if (o.nrest == 0)
        python_client(); /* new-session, attached */
    if (!tmux_mode && (strcmp(o.rest[0], "doctor") == 0 || strcmp(o.rest[0], "plugins") == 0 ||
                       strcmp(o.rest[0], "agents") == 0))
        python_client();
    if (isatty(0) && !commands_terminal_safe(o.rest, o.nrest))
        python_client();

    const char *lang = getenv("TMUX");
    if (lang != NULL && lang[0] != '\0') {
        o.flags |= CLIENT_UTF8;
    } else {
        const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
        lang = "";
        for (int i = 0; i < 3; i++) {
            const char *v = getenv(names[i]);
            if (v != NULL && v[0] != '\0') {
                lang = v;
                break;
            }
        }
        if (strcasestr(lang, "UTF-8") != NULL || strcasestr(lang, "UTF8") != NULL)
            o.flags |= CLIENT_UTF8;
    }

    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    resolve_socket(&o, sa.sun_path, sizeof sa.sun_path);
    c.sock = connect_to(sa.sun_path);
    if (c.sock < 0) {
        /* No server: starting one, or saying why not, is the Python client's, but for the one
         * start a fork server makes for us. */
        int error = errno;
        if (error != ENOENT && error != ECONNREFUSED)
            python_client();
        if (!(o.flags & CLIENT_NOSTARTSERVER) && starts_server(o.rest, o.nrest)) {
            c.sock = start_server(&o, sa.sun_path);
        } else {
            /* client.py's answer when no server runs and none is to be started (libtmux asks
             * has-session before each test's first command), for commands it cannot start
             * one for: full names, none of them a start. */
            if (!commands_terminal_safe(o.rest, o.nrest) || starts_server(o.rest, o.nrest))
                python_client();
            if (error == ECONNREFUSED)
                fprintf(stderr, "no server running on %s\n", sa.sun_path);
            else
                fprintf(stderr, "error connecting to %s (%s)\n", sa.sun_path, strerror(error));
            return 1;
        }
    }

    size_t size = 0;
    for (int i = 0; i < o.nrest; i++)
        size += strlen(o.rest[i]) + 1;
    if (size > MAX_PAYLOAD - 4) {
        fputs("command too long\n", stderr);
        return 1;
    }
    c.flags = o.flags;
    identify(o.flags, o.rest, o.nrest);
    int status = run();
    for (int fd = 0; fd < 3; fd++) { /* as the Python client: leave the fds blocking */
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0 && (fl & O_NONBLOCK))
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    if (c.exit_reason != NULL)
        fprintf(stderr, "%s\n", c.exit_reason);
    return status;
}
