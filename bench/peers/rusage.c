// CPU and peak memory of a whole client process for the end-to-end bench (bench/e2e.js builds it
// with cc into a temp dir): runs the command, waits for it with wait4, and writes its rusage as one
// JSON line to OUT. wait4 reports the child together with every descendant it waited for
// (RUSAGE_BOTH in the kernel), and every thread: user and system seconds apart, µs resolution, and
// ru_maxrss, the peak RSS (VmHWM) of the largest of them.
// The child's pid goes to OUT.pid first, so a caller can follow its threads in /proc meanwhile.
//   rusage OUT cmd [args...]        exits with the command's status
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: rusage OUT cmd [args...]\n"); return 2; }
  pid_t pid = fork();
  if (pid < 0) { perror("rusage: fork"); return 1; }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    perror("rusage: exec");
    _exit(127);
  }
  char pidfile[4096];
  snprintf(pidfile, sizeof pidfile, "%s.pid", argv[1]);
  FILE *pf = fopen(pidfile, "w");
  if (pf) {
    fprintf(pf, "%d\n", (int)pid);
    fclose(pf);
  }
  int status = 0;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) < 0) { perror("rusage: wait4"); return 1; }
  FILE *f = fopen(argv[1], "w");
  if (!f) { perror("rusage: open OUT"); return 1; }
  fprintf(f, "{\"user_s\":%.6f,\"sys_s\":%.6f,\"maxrss_kib\":%ld,\"exit\":%d,\"signal\":%d}\n",
          ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6, ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6, ru.ru_maxrss,
          WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  fclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
