#define _GNU_SOURCE
#include <sys/prctl.h>
#include <sys/socket.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "CLinux.h"

const int zaoan_o_path = O_PATH;

int zaoan_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred cred;
    socklen_t length = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

int zaoan_accept_nonblocking(int listener) {
    return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int zaoan_peer_groups(int fd, gid_t *groups, int capacity) {
    socklen_t length = (socklen_t)(sizeof(gid_t) * (size_t)capacity);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &length) != 0) return -1;
    return (int)(length / sizeof(gid_t));
}

int zaoan_set_process_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/* The most descriptors one SCM_RIGHTS message can carry: SCM_MAX_FD in the kernel's
 * include/net/scm.h, which no header user space gets defines. */
#define ZAOAN_SCM_MAX_FD 253

ssize_t zaoan_receive_with_descriptor(int fd, void *buffer, size_t length, int *passed) {
    /* Room for every descriptor a message can carry, so that each one that arrives is
     * installed here and closed below: with less room the kernel would set MSG_CTRUNC and
     * the hand-over could not be told from one of a single descriptor. */
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int) * ZAOAN_SCM_MAX_FD)];
    } control;
    struct iovec vector = { .iov_base = buffer, .iov_len = length };
    struct msghdr message = {
        .msg_iov = &vector, .msg_iovlen = 1,
        .msg_control = control.space, .msg_controllen = sizeof control.space,
    };
    *passed = -1;
    ssize_t count = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    if (count < 0) return count;
    int first = -1;
    size_t received = 0;
    for (struct cmsghdr *item = CMSG_FIRSTHDR(&message); item; item = CMSG_NXTHDR(&message, item)) {
        if (item->cmsg_level != SOL_SOCKET || item->cmsg_type != SCM_RIGHTS || item->cmsg_len < CMSG_LEN(0)) continue;
        size_t descriptors = (item->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        const unsigned char *data = CMSG_DATA(item);
        for (size_t index = 0; index < descriptors; index++) {
            int descriptor;
            memcpy(&descriptor, data + index * sizeof(int), sizeof(int));
            received++;
            if (first < 0) first = descriptor; else close(descriptor);
        }
    }
    /* Exactly one descriptor, and nothing cut off, is a hand-over; anything else is refused
     * whole, the first descriptor closed like the others. */
    if (received == 1 && (message.msg_flags & MSG_CTRUNC) == 0) *passed = first;
    else if (first >= 0) close(first);
    return count;
}

ssize_t zaoan_send_with_descriptor(int fd, const void *buffer, size_t length, int passed) {
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec vector = { .iov_base = (void *)buffer, .iov_len = length };
    struct msghdr message = {
        .msg_iov = &vector, .msg_iovlen = 1,
        .msg_control = control.space, .msg_controllen = sizeof control.space,
    };
    struct cmsghdr *item = CMSG_FIRSTHDR(&message);
    item->cmsg_level = SOL_SOCKET;
    item->cmsg_type = SCM_RIGHTS;
    item->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(item), &passed, sizeof(int));
    return sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

#include <spawn.h>

pid_t zaoan_spawn_with_pipes(const char *path, char *const argv[], char *const envp[], int input, int output) {
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    int status = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    pid_t pid = -1;
    if (status == 0) status = posix_spawn(&pid, path, &actions, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    if (status != 0) {
        errno = status;
        return -1;
    }
    return pid;
}
