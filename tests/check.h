/*
** check.h -- the tests' tiny assertion layer. Each test program defines test
** functions, runs them with RUN(fn) and ends with return check_summary();
** which prints "N passed, M failed" (one line per program) and gives the
** exit status. A failed CHECK reports file:line and the expression.
*/
#ifndef ASTAR_TEST_CHECK_H
#define ASTAR_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check__failed_checks, check__tests_passed, check__tests_failed;
static int check__current_failed;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                     \
      check__failed_checks++;                                                                      \
      check__current_failed = 1;                                                                   \
    }                                                                                              \
  } while (0)

/* CHECK with a printf-style explanation printed on failure. */
#define CHECKF(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                     \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      check__failed_checks++;                                                                      \
      check__current_failed = 1;                                                                   \
    }                                                                                              \
  } while (0)

#define CHECK_EQ(a, b) CHECKF((a) == (b), "%lld != %lld", (long long)(a), (long long)(b))

/* FAILF(fmt, ...): a failed check with an explanation, for tests that try
** many combinations: the first 25 failures of the program are printed in
** full, the rest only counted (one bug tends to fail thousands of them). */
static inline int check__report_more(void) {
  static int reported;
  return reported++ < 25;
}
#define FAILF(...)                                                                                 \
  do {                                                                                             \
    if (check__report_more()) {                                                                    \
      CHECKF(0, __VA_ARGS__);                                                                      \
    } else {                                                                                       \
      check__failed_checks++;                                                                      \
      check__current_failed = 1;                                                                   \
    }                                                                                              \
  } while (0)

#define RUN(fn)                                                                                    \
  do {                                                                                             \
    check__current_failed = 0;                                                                     \
    fn();                                                                                          \
    if (check__current_failed) {                                                                   \
      check__tests_failed++;                                                                       \
      fprintf(stderr, "FAIL %s\n", #fn);                                                           \
    } else {                                                                                       \
      check__tests_passed++;                                                                       \
      printf("ok   %s\n", #fn);                                                                    \
    }                                                                                              \
  } while (0)

static inline int check_summary(void) {
  printf("%d passed, %d failed\n", check__tests_passed, check__tests_failed);
  return check__tests_failed ? 1 : 0;
}

#endif
