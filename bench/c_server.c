/*
 * c_server: the C floor for zaoan's cold start under socket activation (bench/run.sh). It is
 * started the way systemd starts zaoan, by a connection to a socket it did not create:
 *
 *     systemd-socket-activate -l /tmp/x.sock ./c_server [ZONE CITY]
 *
 * and takes the listening socket as sd_listen_fds(3) hands it over (fd 3, when LISTEN_PID is
 * this process and LISTEN_FDS is at least 1; both variables are then removed, as
 * sd_listen_fds(1) does, so that a child would not take them for its own). It answers one
 * line per connection and closes it, as zaoan does a one-shot connection:
 *
 *   - "greeting": the greeting for the hour in ZONE (default Asia/Shanghai) and the city
 *     (default 北京), as zaoan's Chinese table has it: 早安 from 05:00, 午安 from 11:00, 下午好
 *     from 14:00, 晚上好 from 18:00, 晚安 from 23:00 (until 05:00), then "·" and the city, e.g.
 *     "早安·北京". The local hour comes from localtime_r with TZ set to the zone, so the
 *     tz database file is read at start, as zaoan reads it;
 *   - "ping": "pong";
 *   - anything else: "ERR unknown request".
 *
 * What it is the floor of: exec, the dynamic loader (glibc alone), reading a zone file,
 * accept, read, compute, write, close — what any service must do to answer its first
 * greeting. The difference to zaoan is what zaoan's runtime, libraries and start-up add.
 * The listening fd is taken by hand rather than through libsystemd: loading libsystemd
 * costs about 0.7 ms of the floor on this VM (docs/benchmarks.md), which zaoan pays.
 *
 * Build: gcc -O2 -o c_server c_server.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define LISTEN_FD 3
#define LINE_MAX_BYTES 4096

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

/* The descriptor systemd passed, or -1: LISTEN_PID must name this process. */
static int activated_socket(void) {
    const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
    if (!pid || !fds) return -1;
    char *end;
    errno = 0;
    long listen_pid = strtol(pid, &end, 10);
    if (errno || *end || listen_pid != (long)getpid()) return -1;
    long count = strtol(fds, &end, 10);
    if (errno || *end || count < 1) return -1;
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
    if (fcntl(LISTEN_FD, F_SETFD, FD_CLOEXEC) < 0) return -1;
    return LISTEN_FD;
}

/* zaoan's Chinese greeting table (Sources/ZaoanCore/GreetingTable.swift): each row holds
   from its start until the next; before the first start the last row wraps past midnight. */
static const struct { int start; const char *text; } greetings[] = {
    { 5 * 60, "早安" }, { 11 * 60, "午安" }, { 14 * 60, "下午好" }, { 18 * 60, "晚上好" }, { 23 * 60, "晚安" },
};
#define GREETINGS (sizeof greetings / sizeof greetings[0])

static const char *greeting_now(void) {
    time_t now = time(NULL);
    struct tm local;
    if (!localtime_r(&now, &local)) return greetings[GREETINGS - 1].text;
    int minutes = local.tm_hour * 60 + local.tm_min;
    const char *chosen = greetings[GREETINGS - 1].text;
    for (size_t i = 0; i < GREETINGS; i++)
        if (greetings[i].start <= minutes) chosen = greetings[i].text;
    return chosen;
}

/* Reads one line (LF, an optional CR before it) into line; its length, or -1. */
static ssize_t read_line(int fd, char *line, size_t size) {
    size_t have = 0;
    while (have < size) {
        ssize_t n = read(fd, line + have, size - have);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return have > 0 ? (ssize_t)have : -1; /* a last line without LF counts */
        char *nl = memchr(line + have, '\n', (size_t)n);
        have += (size_t)n;
        if (nl) {
            size_t len = (size_t)(nl - line);
            if (len > 0 && line[len - 1] == '\r') len--;
            return (ssize_t)len;
        }
    }
    return -1; /* longer than LINE_MAX_BYTES: no answer */
}

static void write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

int main(int argc, char **argv) {
    if (argc != 1 && argc != 3) { fprintf(stderr, "usage: %s [ZONE CITY]\n", argv[0]); return 64; }
    const char *zone = argc == 3 ? argv[1] : "Asia/Shanghai";
    const char *city = argc == 3 ? argv[2] : "北京";
    int lfd = activated_socket();
    if (lfd < 0) { fprintf(stderr, "c_server: no socket from systemd (LISTEN_PID/LISTEN_FDS)\n"); return 1; }
    setenv("TZ", zone, 1);
    tzset(); /* reads /usr/share/zoneinfo/ZONE now, before the first answer */
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    char line[LINE_MAX_BYTES + 1], answer[256];
    while (!stop) {
        int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (cfd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            perror("c_server: accept4");
            return 1;
        }
        /* A client that connects and says nothing is let go after a second. */
        struct timeval limit = { .tv_sec = 1 };
        setsockopt(cfd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        ssize_t len = read_line(cfd, line, sizeof line - 1);
        if (len >= 0) {
            int n;
            if (len == 8 && memcmp(line, "greeting", 8) == 0)
                n = snprintf(answer, sizeof answer, "%s·%s\n", greeting_now(), city);
            else if (len == 4 && memcmp(line, "ping", 4) == 0)
                n = snprintf(answer, sizeof answer, "pong\n");
            else
                n = snprintf(answer, sizeof answer, "ERR unknown request\n");
            if (n > 0) write_all(cfd, answer, (size_t)n < sizeof answer ? (size_t)n : sizeof answer - 1);
        }
        close(cfd);
    }
    return 0;
}
