/*
 * c_tick: the C floor for a one-clock bar (bench/bars.py). It does only what a status
 * command for i3bar or swaybar must do for a seconds clock: wake on every wall-clock second,
 * format the time, and write one status line into the pipe the bar reads — the same bytes
 * `zaoan bar` gets written for `"bar_blocks": ["time yyyy-MM-dd HH:mm:ss"]`:
 *
 *   {"version":1,"click_events":true,"stop_signal":23,"cont_signal":18}
 *   [
 *   [{"name":"zaoan","instance":"0-time","full_text":"2026-12-06 15:39:14","urgent":false,"markup":"none"}],
 *   ...one line each second
 *
 * The wake-up is a CLOCK_REALTIME timerfd armed on the next whole second with a period of one
 * second (as bench/bare_loop.c's watch tick, and as zaoan's loop), read with a blocking
 * read(2); the time is clock_gettime (vDSO, no system call) and localtime_r in the zone TZ
 * names (the zone file is read once, at start); the line is one write(2). So a tick costs two
 * system calls and one wake-up. TFD_TIMER_CANCEL_ON_SET re-arms the timer when the wall clock
 * is set, so a clock stepped back does not hold the bar until it catches up. The header
 * offers click events as `zaoan bar`'s does, so the bytes are the same; clicks on stdin are
 * not read (bench/bars.py sends none). It ends when the bar closes the pipe (EPIPE).
 *
 * Build: gcc -O2 -o c_tick c_tick.c        Run: TZ=UTC ./c_tick | cat
 *
 * Built with -DTICK_EPOLL it waits as zaoan's loop does instead: the timerfd is non-blocking
 * and registered with an epoll instance, and each tick is epoll_wait, read, write (three
 * system calls); docs/benchmarks.md compares the two.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#ifdef TICK_EPOLL
#include <sys/epoll.h>
#endif
#include <time.h>
#include <unistd.h>

static const char header[] = "{\"version\":1,\"click_events\":true,\"stop_signal\":23,\"cont_signal\":18}\n[\n";

/* Writes all of s; 0, or -1 when the reader is gone. */
static int write_all(const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Arms tfd on the next whole second, then every second. */
static int arm(int tfd) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct itimerspec every_second = { .it_interval = { 1, 0 }, .it_value = { now.tv_sec + 1, 0 } };
    return timerfd_settime(tfd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &every_second, NULL);
}

/* The status line for the present second; its length. */
static size_t status_line(char *line, size_t size) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm local;
    char text[64] = "";
    if (localtime_r(&now.tv_sec, &local)) strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
    int n = snprintf(line, size,
                     "[{\"name\":\"zaoan\",\"instance\":\"0-time\",\"full_text\":\"%s\",\"urgent\":false,\"markup\":\"none\"}],\n",
                     text);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

int main(void) {
    signal(SIGPIPE, SIG_IGN); /* a closed pipe is EPIPE: the bar is gone */
    tzset();
#ifdef TICK_EPOLL
    int tfd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event interest = { .events = EPOLLIN, .data.fd = tfd };
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &interest) < 0) { perror("c_tick: epoll"); return 1; }
#else
    int tfd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
#endif
    if (tfd < 0 || arm(tfd) < 0) { perror("c_tick: timerfd"); return 1; }
    char line[256];
    if (write_all(header, sizeof header - 1) < 0) return 0;
    if (write_all(line, status_line(line, sizeof line)) < 0) return 0; /* the present, at once */
    for (;;) {
        uint64_t expirations;
#ifdef TICK_EPOLL
        struct epoll_event ready;
        if (epoll_wait(ep, &ready, 1, -1) < 0 && errno != EINTR) { perror("c_tick: epoll_wait"); return 1; }
#endif
        ssize_t n = read(tfd, &expirations, sizeof expirations);
        if (n < 0 && errno == ECANCELED) { /* the wall clock was set: start again from now */
            if (arm(tfd) < 0) { perror("c_tick: timerfd"); return 1; }
        } else if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            perror("c_tick: read");
            return 1;
        }
        if (write_all(line, status_line(line, sizeof line)) < 0) return 0;
    }
}
