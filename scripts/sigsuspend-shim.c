/* valgrind 3.19 writes into the mask passed to rt_sigsuspend, and libdispatch's main-thread loop (every Swift async
 * main ends in it) passes one in read-only memory, so valgrind dies with SIGSEGV. This LD_PRELOAD shim, used by
 * scripts/valgrind-check and scripts/order-file, copies the mask to the stack first. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

/* sigsuspend with the mask copied to writable memory first. */
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, (long)(_NSIG / 8));
}
