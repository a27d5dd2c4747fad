#ifndef ZAOAN_CLINUX_H
#define ZAOAN_CLINUX_H
// Linux interfaces that Swift's Glibc module leaves out: epoll, timerfd, signalfd, and the
// peer credentials of a Unix socket.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/types.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <malloc.h>  /* malloc_trim: memory of large answers given back (ChannelShared) */

/// O_PATH, which fcntl.h declares only under _GNU_SOURCE: a descriptor that names a file,
/// folder or symbolic link without opening it for reading, to walk a path one component at
/// a time (`TrustedPath`) and to fstat or readlinkat what it names.
extern const int zaoan_o_path;

/// The pid, uid and gid of the process on the other end of a Unix socket (SO_PEERCRED).
/// Returns 0, or -1 with errno set.
int zaoan_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/// The supplementary groups of the peer process (SO_PEERGROUPS, Linux 4.13+).
/// Returns how many were stored, or -1 with errno set (ERANGE: more than `capacity`).
int zaoan_peer_groups(int fd, gid_t *groups, int capacity);

/// accept4 with SOCK_NONBLOCK and SOCK_CLOEXEC (glibc declares accept4 only under _GNU_SOURCE).
int zaoan_accept_nonblocking(int listener);

/// Sets the calling thread's name, which for the main thread is the process's `comm`
/// (prctl PR_SET_NAME; prctl is variadic, so Swift cannot call it). Returns 0 or -1.
int zaoan_set_process_name(const char *name);

/// recv that also takes one descriptor passed with SCM_RIGHTS (`zaoan bar` hands over its
/// standard output with its request). `*passed` is the descriptor (close-on-exec), or -1
/// when none came or the hand-over is refused: more than one descriptor, or a control
/// message cut short (MSG_CTRUNC). Every descriptor received and not passed is closed; the
/// control buffer has room for SCM_MAX_FD (253), all one message can carry.
/// Returns bytes read, 0 at end of input, or -1 with errno set.
ssize_t zaoan_receive_with_descriptor(int fd, void *buffer, size_t length, int *passed);

/// Sends `length` bytes with one descriptor attached (SCM_RIGHTS), without blocking and
/// without SIGPIPE. Returns bytes sent or -1 with errno set.
ssize_t zaoan_send_with_descriptor(int fd, const void *buffer, size_t length, int passed);

/// Starts `path` with `input` as its stdin, `output` as its stdout, stderr shared and every
/// other descriptor closed (posix_spawn with closefrom, glibc 2.34+), whatever its
/// close-on-exec flag. Returns the pid, or -1 with errno set.
pid_t zaoan_spawn_with_pipes(const char *path, char *const argv[], char *const envp[], int input, int output);

/// The loop's own calls on sockets and on epoll, through syscall(2), which is no
/// cancellation point. glibc's read, send and epoll_wait are, and in a process with more than
/// one thread (the service's background workers) each call switches the thread to
/// asynchronous cancellation and back, two atomic operations around every system call. The
/// service never cancels a thread. Each returns what the system call returns, or -1 with
/// errno set.
static inline ssize_t zaoan_read(int fd, void *buffer, size_t length) {
    return syscall(SYS_read, fd, buffer, length);
}

static inline ssize_t zaoan_send(int fd, const void *buffer, size_t length, int flags) {
    return syscall(SYS_sendto, fd, buffer, length, flags, NULL, 0);
}

static inline int zaoan_epoll_wait(int epoll, struct epoll_event *events, int capacity, int timeout) {
    return (int)syscall(SYS_epoll_pwait, epoll, events, capacity, timeout, NULL, 0);
}

#endif
