/* defect: backoff exponent off by one: a single rapid failure (F = 1) waits 40 ms
 * and the sequence is 40, 80, 160, 160, 160 instead of 20, 40, 80, 160, 160.
 * breaks: "Otherwise it waits `D` milliseconds and starts the next run, where `D = 20` when `F` is 0 or 1, and `D = min(20 × 2^(F−1), 160)` when `F` is 2 or more (so rapid failures wait 20, 40, 80, 160, 160 ms)."
 * must_fail: scenario_backoff_caps_and_gives_up, scenario_finishes_after_two_failures
 */
/* superv - process supervisor with restart backoff (synchronous signal handling) */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HEALTHY_MS      300
#define GIVE_UP_COUNT   6
#define BASE_DELAY_MS   20
#define MAX_DELAY_MS    160
#define GRACE_MS        200

static sigset_t orig_mask;
static sigset_t wait_set;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void logline(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logline(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* Wait for SIGCHLD or SIGTERM until the absolute deadline (ms, monotonic).
 * deadline < 0 means wait forever. Returns the signal number, or 0 on timeout. */
static int wait_signal(long long deadline)
{
    for (;;) {
        int sig;
        if (deadline < 0) {
            sig = sigwaitinfo(&wait_set, NULL);
        } else {
            long long rem = deadline - now_ms();
            if (rem <= 0)
                return 0;
            struct timespec ts = { rem / 1000, (rem % 1000) * 1000000L };
            sig = sigtimedwait(&wait_set, NULL, &ts);
        }
        if (sig > 0)
            return sig;
        if (errno == EAGAIN)
            return 0;
        /* EINTR: retry */
    }
}

static void log_end(int run, int status)
{
    if (WIFEXITED(status))
        logline("exit %d status %d", run, WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        logline("exit %d signal %d", run, WTERMSIG(status));
}

static pid_t start_run(char **argv, int run)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("superv: fork");
        return -1;
    }
    if (pid == 0) {
        /* restore the signal state the supervisor was started with */
        for (int s = 1; s < NSIG; s++)
            signal(s, SIG_DFL);
        sigprocmask(SIG_SETMASK, &orig_mask, NULL);
        execvp(argv[0], argv);
        _exit(127);
    }
    logline("start %d", run);
    return pid;
}

static int stop_child(pid_t pid, int run)
{
    int status;
    kill(pid, SIGTERM);
    long long deadline = now_ms() + GRACE_MS;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            log_end(run, status);
            return 0;
        }
        if (r < 0 && errno != EINTR)
            return 0;
        if (wait_signal(deadline) == 0) {
            /* one last check before escalating */
            r = waitpid(pid, &status, WNOHANG);
            if (r == pid) {
                log_end(run, status);
                return 0;
            }
            break;
        }
    }
    logline("killing %d", run);
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    log_end(run, status);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: superv COMMAND [ARG...]\n");
        return 2;
    }

    sigemptyset(&wait_set);
    sigaddset(&wait_set, SIGCHLD);
    sigaddset(&wait_set, SIGTERM);
    sigprocmask(SIG_BLOCK, &wait_set, &orig_mask);

    int run = 0;
    int fails = 0;

    for (;;) {
        run++;
        long long started = now_ms();
        pid_t pid = start_run(argv + 1, run);
        int status = 0;

        if (pid < 0) {
            status = 127 << 8; /* treat like an exec failure */
        } else {
            for (;;) {
                int sig = wait_signal(-1);
                if (sig == SIGTERM) {
                    logline("stopping");
                    stop_child(pid, run);
                    logline("stopped");
                    return 0;
                }
                pid_t r = waitpid(pid, &status, WNOHANG);
                if (r == pid)
                    break;
            }
        }
        long long lasted = now_ms() - started;
        log_end(run, status);

        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            logline("done");
            return 0;
        }

        if (lasted >= HEALTHY_MS)
            fails = 0;
        else
            fails++;

        if (fails >= GIVE_UP_COUNT) {
            logline("giving up");
            return 1;
        }

        int delay = BASE_DELAY_MS;
        if (fails >= 1) {
            delay = BASE_DELAY_MS << fails;
            if (delay > MAX_DELAY_MS)
                delay = MAX_DELAY_MS;
        }
        logline("restart in %d ms", delay);

        long long deadline = now_ms() + delay;
        for (;;) {
            int sig = wait_signal(deadline);
            if (sig == 0)
                break;
            if (sig == SIGTERM) {
                logline("stopping");
                logline("stopped");
                return 0;
            }
            /* stray SIGCHLD: nothing to do */
        }
    }
}
