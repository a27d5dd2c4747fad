/*
 * bare_loop: the reference "bare loop" for bench/run.sh — a minimal single-threaded,
 * level-triggered epoll server on a Unix socket, speaking zaoan's framing with no work
 * behind it:
 *
 *   - each request line (LF-terminated) is answered with a constant line, "pong\n";
 *   - the line "session" is answered "ok\n" and keeps the connection open;
 *   - a line starting "watch " is answered with a constant update line (the size of a
 *     countdown's) and keeps the connection open; on every wall-clock second boundary
 *     (a CLOCK_REALTIME timerfd) the same line is sent to every watcher, one send each, all
 *     in one go: the floor for zaoan's `watch` tick (one render, one write per watcher);
 *   - otherwise the connection is one-shot, like zaoan's: once every complete line read so
 *     far is answered and nothing more is buffered, it is closed after the answer.
 *
 * It is the ceiling for what a one-thread event loop can do on this machine with the same
 * syscalls zaoan needs (accept4, epoll_ctl to add, read, send, close; epoll_ctl to modify only
 * when output backs up). Like zaoan, it reads a new connection right after accepting it.
 *
 * Build: gcc -O2 -o bare_loop bare_loop.c        Run: ./bare_loop /tmp/x.sock
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_FDS 65536
#define LINE_MAX_BYTES 4096

struct conn {
    char in[LINE_MAX_BYTES + 2];
    size_t in_len;
    char *out;        /* pending output, only when a send came up short */
    size_t out_len, out_sent;
    int session, closing, want_out;
    int watch_slot; /* index in watchers + 1, or 0 */
};

static struct conn *conns[MAX_FDS];
static int epfd;
static volatile sig_atomic_t stop;
static int watchers[MAX_FDS];
static int watcher_count;
static const char update_line[] = "Bench \xc2\xb7 \xe8\xb7\x9d\xe5\xbc\x80\xe6\x92\xad 01:55:49\n";
#define UPDATE_LEN (sizeof update_line - 1)

static void on_signal(int sig) { (void)sig; stop = 1; }

static void conn_close(int fd) {
    struct conn *c = conns[fd];
    conns[fd] = NULL;
    if (c && c->watch_slot) { /* swap-remove from the watchers */
        int last = watchers[--watcher_count];
        watchers[c->watch_slot - 1] = last;
        if (conns[last]) conns[last]->watch_slot = c->watch_slot;
    }
    close(fd); /* also removes it from the epoll set */
    if (c) { free(c->out); free(c); }
}

static void queue(struct conn *c, const char *s, size_t n) {
    c->out = realloc(c->out, c->out_len + n);
    memcpy(c->out + c->out_len, s, n);
    c->out_len += n;
}

/* Writes what is pending; 0 if the connection is still open. */
static int flush_out(int fd, struct conn *c) {
    while (c->out_sent < c->out_len) {
        ssize_t n = send(fd, c->out + c->out_sent, c->out_len - c->out_sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) { c->out_sent += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) break;
        conn_close(fd);
        return -1;
    }
    int pending = c->out_sent < c->out_len;
    if (!pending) { c->out_len = c->out_sent = 0; }
    if (!pending && c->closing) { conn_close(fd); return -1; }
    if (pending != c->want_out) {
        struct epoll_event ev = { .events = pending ? EPOLLOUT : EPOLLIN, .data.fd = fd };
        epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
        c->want_out = pending;
    }
    return 0;
}

static void on_readable(int fd, struct conn *c) {
    char buf[16384];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) return;
        conn_close(fd);
        return;
    }
    if (n == 0) {
        if (c->in_len > 0) queue(c, "pong\n", 5);
        c->closing = 1;
        flush_out(fd, c);
        return;
    }
    int answered = 0;
    char reply[16384];
    size_t reply_len = 0;
    char *p = buf, *end = buf + n;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (c->in_len + take > LINE_MAX_BYTES + 1) { c->closing = 1; break; }
        memcpy(c->in + c->in_len, p, take);
        c->in_len += take;
        if (!nl) break;
        p = nl + 1;
        size_t len = c->in_len;
        if (len > 0 && c->in[len - 1] == '\r') len--;
        c->in_len = 0;
        answered = 1;
        if (reply_len + 5 > sizeof reply) { queue(c, reply, reply_len); reply_len = 0; }
        if (len == 7 && memcmp(c->in, "session", 7) == 0) {
            c->session = 1;
            memcpy(reply + reply_len, "ok\n", 3); reply_len += 3;
        } else if (len > 6 && memcmp(c->in, "watch ", 6) == 0) {
            c->session = 1;
            if (!c->watch_slot) { watchers[watcher_count++] = fd; c->watch_slot = watcher_count; }
            if (reply_len + UPDATE_LEN > sizeof reply) { queue(c, reply, reply_len); reply_len = 0; }
            memcpy(reply + reply_len, update_line, UPDATE_LEN); reply_len += UPDATE_LEN;
        } else {
            memcpy(reply + reply_len, "pong\n", 5); reply_len += 5;
        }
    }
    if (!c->session && answered && c->in_len == 0) c->closing = 1;
    if (c->out_len == 0 && reply_len > 0) {
        /* The common case: answer straight from the stack, no copy into the connection. */
        ssize_t sent = send(fd, reply, reply_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent < 0 && errno != EAGAIN && errno != EINTR) { conn_close(fd); return; }
        if (sent < 0) sent = 0;
        if ((size_t)sent < reply_len) queue(c, reply + sent, reply_len - (size_t)sent);
    } else if (reply_len > 0) {
        queue(c, reply, reply_len);
    }
    flush_out(fd, c);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s SOCKET-PATH\n", argv[0]); return 64; }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    if (strlen(argv[1]) >= sizeof addr.sun_path) { fprintf(stderr, "path too long\n"); return 1; }
    strcpy(addr.sun_path, argv[1]);
    unlink(argv[1]);
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, SOMAXCONN) < 0) {
        perror("bind/listen");
        return 1;
    }
    epfd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = lfd };
    epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &ev);

    int tfd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct itimerspec every_second = { .it_interval = { 1, 0 }, .it_value = { now.tv_sec + 1, 0 } };
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &every_second, NULL);
    struct epoll_event tev = { .events = EPOLLIN, .data.fd = tfd };
    epoll_ctl(epfd, EPOLL_CTL_ADD, tfd, &tev);

    struct epoll_event events[256];
    while (!stop) {
        int n = epoll_wait(epfd, events, 256, -1);
        if (n < 0) { if (errno == EINTR) continue; perror("epoll_wait"); break; }
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            if (fd == lfd) {
                for (int k = 0; k < 64; k++) {
                    int cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                    if (cfd < 0) break;
                    if (cfd >= MAX_FDS) { close(cfd); continue; }
                    conns[cfd] = calloc(1, sizeof(struct conn));
                    struct epoll_event cev = { .events = EPOLLIN, .data.fd = cfd };
                    epoll_ctl(epfd, EPOLL_CTL_ADD, cfd, &cev);
                    /* A one-shot client has usually sent its line by now: answer it without
                       another trip through epoll_wait (EAGAIN costs one cheap read). */
                    on_readable(cfd, conns[cfd]);
                }
                continue;
            }
            if (fd == tfd) {
                uint64_t expirations;
                if (read(tfd, &expirations, sizeof expirations) < 0) continue;
                for (int k = watcher_count - 1; k >= 0; k--) {  /* a close swap-removes: back to front */
                    int wfd = watchers[k];
                    struct conn *w = conns[wfd];
                    if (w->out_len > 0) { queue(w, update_line, UPDATE_LEN); flush_out(wfd, w); continue; }
                    ssize_t sent = send(wfd, update_line, UPDATE_LEN, MSG_NOSIGNAL | MSG_DONTWAIT);
                    if (sent < 0) sent = 0;
                    if ((size_t)sent < UPDATE_LEN) { queue(w, update_line + sent, UPDATE_LEN - (size_t)sent); flush_out(wfd, w); }
                }
                continue;
            }
            struct conn *c = conns[fd];
            if (!c) continue;
            if (events[i].events & EPOLLOUT) { if (flush_out(fd, c) < 0) continue; }
            if ((events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && !c->closing) on_readable(fd, c);
        }
    }
    unlink(argv[1]);
    return 0;
}
