// prctl(2), which Swift cannot call (it is variadic in C), and pipe2(2),
// which glibc declares only under _GNU_SOURCE. Header only: the functions
// are inlined into the Swift caller (no library to link).
#ifndef TRANSVID_PROCESS_H
#define TRANSVID_PROCESS_H

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>

int pipe2(int pipefd[2], int flags);

/// A pipe whose both ends close on exec: a process started by another
/// thread meanwhile never inherits them. 0 on success, -1 with errno set.
static inline int tv_pipe_cloexec(int fds[2]) {
  return pipe2(fds, O_CLOEXEC);
}

/// Asks the kernel to send `signo` to this process when the thread that
/// started it ends (its parent's exit, a crash or SIGKILL included). 0 on
/// success, -1 with errno set otherwise.
static inline int tv_set_parent_death_signal(int signo) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signo, 0UL, 0UL, 0UL);
}

#endif
