/*
** man.c -- `astar --man`: the manual page astar(1) in roff, made from the
** very texts `astar --help` and `astar COMMAND --help` print. Every help
** page is printed from its command's option table (cli_print_help, as
** --help prints it) and copied verbatim (roff-escaped) into the page, so
** the page and the help can never differ; CMake builds build/astar.1 this way and
** `make install` installs it (share/man/man1). tests/cli/man_test.sh checks
** that every command's help is in the page.
*/
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Help page `page` of a command's spec, as a malloc'd NUL-terminated
** string (NULL on failure): what `astar COMMAND --help` prints for it. */
static char *capture_help(const cli_spec *spec, size_t page) {
  FILE *tmp = tmpfile();
  if (!tmp) return NULL;
  cli_print_help(tmp, spec, page);
  char *text = NULL;
  long size = ftell(tmp);
  if (size >= 0 && fseek(tmp, 0, SEEK_SET) == 0 && (text = malloc((size_t)size + 1)) != NULL) {
    size_t got = fread(text, 1, (size_t)size, tmp);
    text[got] = '\0';
  }
  fclose(tmp);
  return text;
}

/* The main help (print_help) as a string. */
static char *capture_main(void (*print_help)(FILE *out)) {
  FILE *tmp = tmpfile();
  if (!tmp) return NULL;
  print_help(tmp);
  long size = ftell(tmp);
  char *text = NULL;
  if (size >= 0 && fseek(tmp, 0, SEEK_SET) == 0 && (text = malloc((size_t)size + 1)) != NULL) {
    size_t got = fread(text, 1, (size_t)size, tmp);
    text[got] = '\0';
  }
  fclose(tmp);
  return text;
}

/* One line of text, escaped for roff: backslashes as \e, hyphens as \- (so
** that options copy and paste as typed), a leading '.' or '\'' behind \&,
** bytes outside ASCII as themselves (the page is UTF-8, like the help). */
static void put_escaped(FILE *out, const char *s, size_t n) {
  if (n > 0 && (s[0] == '.' || s[0] == '\'')) fputs("\\&", out);
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\\')
      fputs("\\e", out);
    else if (s[i] == '-')
      fputs("\\-", out);
    else
      fputc(s[i], out);
  }
}

/* A help text verbatim: a no-fill block, one output line per line. */
static void put_block(FILE *out, const char *text) {
  fputs(".nf\n", out);
  for (const char *p = text; *p;) {
    const char *end = strchr(p, '\n');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == 0)
      fputs(".sp\n", out); /* an empty line in no-fill mode */
    else {
      put_escaped(out, p, n);
      fputc('\n', out);
    }
    p += n + (end ? 1 : 0);
  }
  fputs(".fi\n", out);
}

/* The line of `text` after its "usage:" lines and the blank line that
** follows them: the one-line description ("A* pathfinding on ..."). */
static void put_tagline(FILE *out, const char *text) {
  const char *p = strstr(text, "\n\n");
  p = p ? p + 2 : text;
  size_t n = strcspn(p, "\n");
  while (n > 0 && p[n - 1] == '.') n--;
  put_escaped(out, p, n);
  fputc('\n', out);
}

/* The "usage:" lines of `text`, without the word, one synopsis line each. */
static void put_synopsis(FILE *out, const char *text) {
  fputs(".nf\n", out);
  for (const char *p = text; *p && *p != '\n';) {
    size_t n = strcspn(p, "\n");
    const char *s = p;
    if (strncmp(s, "usage:", 6) == 0) s += 6;
    while (*s == ' ') s++;
    put_escaped(out, s, n - (size_t)(s - p));
    fputc('\n', out);
    p += n + (p[n] ? 1 : 0);
  }
  fputs(".fi\n", out);
}

int cli_print_man(FILE *out, const cli_command *commands, size_t ncommands,
                  void (*print_help)(FILE *out)) {
  char *main_help = capture_main(print_help);
  if (!main_help) {
    cli_error("--man: cannot capture the help text");
    return CLI_EXIT_FAIL;
  }
  fprintf(out,
          ".\\\" astar(1) -- made by `astar --man` from the tool's own help texts\n"
          ".\\\" (astar --help, astar COMMAND --help); do not edit.\n"
          ".TH ASTAR 1 \"\" \"libastar %s\" \"libastar manual\"\n"
          ".SH NAME\n"
          "astar \\- ",
          ASTAR_VERSION_STRING);
  put_tagline(out, main_help);
  fputs(".SH SYNOPSIS\n", out);
  put_synopsis(out, main_help);
  fputs(".SH DESCRIPTION\n"
        "The text of\n"
        ".BR \"astar \\-\\-help\" ,\n"
        "then of\n"
        ".B astar\n"
        ".I COMMAND\n"
        ".B \\-\\-help\n"
        "for every command (section COMMANDS).\n"
        ".PP\n",
        out);
  put_block(out, main_help);
  free(main_help);

  int rc = CLI_EXIT_OK;
  fputs(".SH COMMANDS\n", out);
  for (size_t i = 0; i < ncommands; i++) {
    char *help = capture_help(commands[i].spec, 0);
    if (!help) {
      cli_error("--man: cannot capture the help of '%s'", commands[i].name);
      rc = CLI_EXIT_FAIL;
      continue;
    }
    fprintf(out, ".SS \"astar %s\"\n", commands[i].name);
    put_escaped(out, commands[i].summary, strlen(commands[i].summary));
    fputs(".\n.PP\n", out);
    put_block(out, help);
    free(help);
  }
  /* The pages of the other kinds of input (`astar solve MAP.hex --help`). */
  for (size_t i = 0; i < ncommands; i++) {
    for (size_t p = 1; p < commands[i].spec->npages; p++) {
      char *help = capture_help(commands[i].spec, p);
      if (!help) {
        cli_error("--man: cannot capture the help of '%s'", commands[i].spec->pages[p].title);
        rc = CLI_EXIT_FAIL;
        continue;
      }
      fprintf(out, ".SS \"%s\"\n", commands[i].spec->pages[p].title);
      put_block(out, help);
      free(help);
    }
  }
  /* The table of `astar --help` again, in the section man(7) expects. */
  fputs(".SH \"EXIT STATUS\"\n", out);
  put_block(out, strchr(cli_exit_status_help, '\n') + 1);
  fputs(".SH SEE ALSO\n"
        "The libastar README (the library, the map formats, the Python package) and\n"
        "the headers in\n"
        ".IR include/astar/ ,\n"
        "which are the library's manual.\n",
        out);
  if (fflush(out) != 0 || ferror(out)) {
    cli_error("--man: write error");
    rc = CLI_EXIT_FAIL;
  }
  return rc;
}
