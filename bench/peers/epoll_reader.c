// The floor the end-to-end bench compares servebench against: a minimal C client on one epoll
// loop. It opens C keep-alive connections to the mock, sends the request the mock serves, does one
// recv per readiness, stamps each recv (CLOCK_MONOTONIC, the clock the mock stamps "sb_send_ns"
// with) and gives that stamp to every SSE event the recv completed. No JSON decode, no tokenizer:
// only framing ("\n\n"), the [DONE] marker, the end of the chunked body and the send stamp.
// --coalesce-us U sleeps U µs after each epoll wake-up before reading, so one recv takes what
// arrived meanwhile (fewer syscalls per event, later stamps).
//
// Built by bench/e2e.js with `cc -O2` into a temp dir. Prints one JSON line:
//   requests, events (the [DONE] event included, as the other clients count it), errors, wall_s
//   (first send to last response), cpu user_s/sys_s (getrusage), stamp error p50/p99/max (ms),
//   TTFT p50 (ms), ITL p50 from the client's and from the server's stamps (ms, per request:
//   (last − first stamped event) / (osl − 1)).
//   epoll_reader --port P --concurrency C --requests N --osl 128 [--coalesce-us U] [--host H]
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BUF 65536

typedef struct {
  int fd;
  size_t len;
  int done;             // [DONE] seen; waiting for the chunked terminator
  int stamped;          // stamped events in this response
  int64_t sent_ns;      // request written
  int64_t c_first, c_last, s_first, s_last;
  char buf[BUF];
} conn_t;

typedef struct {
  int64_t *v;
  size_t n, cap;
} vec_t;

static void push(vec_t *a, int64_t x) {
  if (a->n == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 4096;
    a->v = realloc(a->v, a->cap * sizeof(int64_t));
    if (!a->v) { fprintf(stderr, "epoll_reader: out of memory\n"); exit(1); }
  }
  a->v[a->n++] = x;
}

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/** p-quantile (0..1) in ms, sorting in place; -1 when empty. */
static double q_ms(vec_t *a, double p) {
  if (a->n == 0) return -1;
  qsort(a->v, a->n, sizeof(int64_t), cmp64);
  size_t i = (size_t)(p * a->n);
  if (i >= a->n) i = a->n - 1;
  return a->v[i] / 1e6;
}

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static char request[1024];
static size_t request_len;
static long events, requests_done, requests_sent, errors;
static vec_t stamp_err, ttft, itl_c, itl_s;
static int osl = 128;

static int send_request(conn_t *c) {
  c->len = 0;
  c->done = 0;
  c->stamped = 0;
  c->sent_ns = now_ns();
  ssize_t w = send(c->fd, request, request_len, MSG_NOSIGNAL);
  return w == (ssize_t)request_len ? 0 : -1;
}

/** Frames the events now complete in c->buf; returns 1 when the response has ended. */
static int consume(conn_t *c, int64_t stamp) {
  static const char key[] = "\"sb_send_ns\":\"";
  size_t at = 0;
  for (;;) {
    if (c->done) {
      char *end = memmem(c->buf + at, c->len - at, "0\r\n\r\n", 5);
      if (!end) break;
      if (c->stamped > 0) {
        push(&ttft, c->c_first - c->sent_ns);
        if (osl > 1 && c->stamped > 1) {
          push(&itl_c, (c->c_last - c->c_first) / (osl - 1));
          push(&itl_s, (c->s_last - c->s_first) / (osl - 1));
        }
      }
      c->len = 0;
      return 1;
    }
    char *ev = memmem(c->buf + at, c->len - at, "\n\n", 2);
    if (!ev) break;
    size_t evlen = (size_t)(ev - (c->buf + at));
    char *data = memmem(c->buf + at, evlen, "data: ", 6);
    if (data) {
      events++;
      if (strncmp(data + 6, "[DONE]", 6) == 0) {
        c->done = 1;
      } else {
        char *k = memmem(data, evlen - (size_t)(data - (c->buf + at)), key, sizeof key - 1);
        if (k) {
          int64_t sent = strtoll(k + sizeof key - 1, NULL, 10);
          push(&stamp_err, stamp - sent);
          if (c->stamped++ == 0) { c->c_first = stamp; c->s_first = sent; }
          c->c_last = stamp;
          c->s_last = sent;
        }
      }
    }
    at += evlen + 2;
  }
  if (at > 0) {
    memmove(c->buf, c->buf + at, c->len - at);
    c->len -= at;
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *host = "127.0.0.1";
  int port = 0, concurrency = 64, coalesce_us = 0;
  long total = 1024;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--host")) host = argv[i + 1];
    else if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--concurrency")) concurrency = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--requests")) total = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "--osl")) osl = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--coalesce-us")) coalesce_us = atoi(argv[i + 1]);
    else { fprintf(stderr, "epoll_reader: unknown option %s\n", argv[i]); return 2; }
  }
  if (port <= 0 || concurrency <= 0 || total <= 0) { fprintf(stderr, "epoll_reader: --port, --concurrency and --requests are needed\n"); return 2; }
  if (concurrency > total) concurrency = (int)total;

  char body[256];
  int blen = snprintf(body, sizeof body,
                      "{\"model\":\"mock-model\",\"messages\":[{\"role\":\"user\",\"content\":\"Tell me a story.\"}],\"max_tokens\":%d,\"stream\":true}", osl);
  request_len = (size_t)snprintf(request, sizeof request,
                                 "POST /v1/chat/completions HTTP/1.1\r\nhost: %s:%d\r\ncontent-type: application/json\r\naccept: text/event-stream\r\ncontent-length: %d\r\n\r\n%s",
                                 host, port, blen, body);

  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) { fprintf(stderr, "epoll_reader: bad --host %s\n", host); return 2; }
  int ep = epoll_create1(0);
  conn_t *conns = calloc((size_t)concurrency, sizeof(conn_t));
  if (!conns) { fprintf(stderr, "epoll_reader: out of memory\n"); return 1; }
  for (int i = 0; i < concurrency; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
      printf("{\"error\":\"connect %d: %s\"}\n", i, strerror(errno));
      return 1;
    }
    conns[i].fd = fd;
    struct epoll_event e = {.events = EPOLLIN, .data.ptr = &conns[i]};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
  }
  struct rusage r0;
  getrusage(RUSAGE_SELF, &r0);
  int64_t t0 = now_ns();
  for (int i = 0; i < concurrency; i++) {
    requests_sent++;
    if (send_request(&conns[i]) != 0) errors++;
  }
  struct epoll_event evs[256];
  struct timespec nap = {.tv_sec = 0, .tv_nsec = (long)coalesce_us * 1000L};
  while (requests_done + errors < total) {
    int n = epoll_wait(ep, evs, 256, 10000);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) { fprintf(stderr, "epoll_reader: stalled (%ld of %ld done)\n", requests_done, total); break; }
    if (coalesce_us > 0) nanosleep(&nap, NULL);
    for (int i = 0; i < n; i++) {
      conn_t *c = evs[i].data.ptr;
      if (c->len == BUF) { errors++; c->len = 0; continue; }
      ssize_t got = recv(c->fd, c->buf + c->len, BUF - c->len, 0);
      int64_t stamp = now_ns();
      if (got <= 0) {
        if (got < 0 && errno == EAGAIN) continue;
        errors++;
        epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        continue;
      }
      c->len += (size_t)got;
      if (consume(c, stamp)) {
        requests_done++;
        if (requests_sent < total) {
          requests_sent++;
          if (send_request(c) != 0) errors++;
        }
      }
    }
  }
  int64_t wall = now_ns() - t0;
  struct rusage r1;
  getrusage(RUSAGE_SELF, &r1);
  double user = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) + (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) / 1e6;
  double sys = (r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) + (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6;
  size_t nerr = stamp_err.n;
  double p50 = q_ms(&stamp_err, 0.5), p99 = q_ms(&stamp_err, 0.99);
  double mx = nerr ? stamp_err.v[nerr - 1] / 1e6 : -1;
  printf("{\"client\":\"epoll_reader\",\"coalesce_us\":%d,\"concurrency\":%d,\"requests\":%ld,\"events\":%ld,\"errors\":%ld,"
         "\"wall_s\":%.6f,\"cpu_user_s\":%.6f,\"cpu_sys_s\":%.6f,"
         "\"stamp_error_ms\":{\"count\":%zu,\"p50\":%.4f,\"p99\":%.4f,\"max\":%.4f},"
         "\"ttft_ms_p50\":%.4f,\"itl_ms_p50\":%.4f,\"server_itl_ms_p50\":%.4f}\n",
         coalesce_us, concurrency, requests_done, events, errors, wall / 1e9, user, sys, nerr, p50, p99, mx,
         q_ms(&ttft, 0.5), q_ms(&itl_c, 0.5), q_ms(&itl_s, 0.5));
  return 0;
}
