/* defect: the child is exec'd with SIGCHLD and SIGTERM still blocked (the mask set
 * around fork() is never restored in the child), so the service ignores SIGTERM.
 * breaks: "Every child starts with the signal dispositions and the signal mask that the supervisor itself was started with (all signals default and unblocked), whatever the supervisor does with signals for itself."
 * must_fail: scenario_stop_child_default_signals
 */
/*
 * superv: start a service, restart it with backoff, stop it on SIGTERM.
 * Event loop built on a self-pipe: signal handlers only write a byte,
 * everything else happens in main() around poll().
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int wake_pipe[2] = { -1, -1 };
static volatile sig_atomic_t got_term;

static void on_signal(int sig)
{
    int saved = errno;
    if (sig == SIGTERM)
        got_term = 1;
    char c = (char)sig;
    (void)!write(wake_pipe[1], &c, 1);
    errno = saved;
}

static struct timespec mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
}

static long elapsed_ms(struct timespec since)
{
    struct timespec t = mono();
    return (t.tv_sec - since.tv_sec) * 1000L + (t.tv_nsec - since.tv_nsec) / 1000000L;
}

static void drain(void)
{
    char buf[64];
    while (read(wake_pipe[0], buf, sizeof buf) > 0)
        ;
}

/* Sleep on the pipe for up to ms milliseconds (ms < 0: no limit).
 * Returns early when any signal arrives. */
static void nap(long ms)
{
    struct pollfd p = { .fd = wake_pipe[0], .events = POLLIN };
    if (poll(&p, 1, ms < 0 ? -1 : (int)ms) > 0)
        drain();
}

/* Non-blocking reap of the current child; returns 1 when it has ended. */
static int reaped(pid_t pid, int *status)
{
    pid_t r;
    do {
        r = waitpid(pid, status, WNOHANG);
    } while (r < 0 && errno == EINTR);
    return r == pid;
}

static void report(int n, int status)
{
    if (WIFSIGNALED(status))
        printf("exit %d signal %d\n", n, WTERMSIG(status));
    else
        printf("exit %d status %d\n", n, WEXITSTATUS(status));
}

static int backoff_ms(int f)
{
    static const int table[] = { 20, 20, 40, 80, 160, 160 };
    return table[f];
}

int main(int argc, char *argv[])
{
    if (argc < 2) {
        fputs("usage: superv COMMAND [ARG...]\n", stderr);
        exit(2);
    }
    setvbuf(stdout, NULL, _IONBF, 0);

    if (pipe(wake_pipe) < 0) {
        perror("superv: pipe");
        exit(1);
    }
    for (int i = 0; i < 2; i++) {
        fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
        fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
    }

    sigset_t startup_mask, block;
    sigprocmask(SIG_SETMASK, NULL, &startup_mask);
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigaddset(&block, SIGTERM);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGCHLD, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    int n = 0, f = 0;

    while (!got_term) {
        int status;
        n++;

        /* Keep handlers from running in the child between fork and exec. */
        sigprocmask(SIG_BLOCK, &block, NULL);
        struct timespec t0 = mono();
        pid_t pid = fork();
        if (pid == 0) {
            struct sigaction dfl;
            memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            sigemptyset(&dfl.sa_mask);
            sigaction(SIGCHLD, &dfl, NULL);
            sigaction(SIGTERM, &dfl, NULL);
            execvp(argv[1], &argv[1]);
            _exit(127);
        }
        if (pid > 0)
            printf("start %d\n", n);
        sigprocmask(SIG_UNBLOCK, &block, NULL);

        if (pid < 0) {
            perror("superv: fork");
            status = 127 << 8;
        } else {
            while (!reaped(pid, &status)) {
                if (got_term) {
                    puts("stopping");
                    kill(pid, SIGTERM);
                    struct timespec k0 = mono();
                    int gone = 0;
                    for (;;) {
                        if (reaped(pid, &status)) {
                            gone = 1;
                            break;
                        }
                        long left = 200 - elapsed_ms(k0);
                        if (left <= 0)
                            break;
                        nap(left);
                    }
                    if (!gone) {
                        printf("killing %d\n", n);
                        kill(pid, SIGKILL);
                        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                            ;
                    }
                    report(n, status);
                    puts("stopped");
                    return 0;
                }
                nap(-1);
            }
        }
        long lasted = elapsed_ms(t0);
        report(n, status);

        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            puts("done");
            return 0;
        }

        f = (lasted >= 300) ? 0 : f + 1;
        if (f == 6) {
            puts("giving up");
            return 1;
        }

        int d = backoff_ms(f);
        printf("restart in %d ms\n", d);
        struct timespec w0 = mono();
        for (;;) {
            if (got_term)
                break;
            long left = d - elapsed_ms(w0);
            if (left <= 0)
                break;
            nap(left);
        }
    }

    puts("stopping");
    puts("stopped");
    return 0;
}
