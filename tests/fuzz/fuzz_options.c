/* libFuzzer target: the command line, through the real main() of
 * src/main.c (built with -Dmain=undercroft_main).  The input is the
 * arguments, one per line.  Two things are kept out because they end or
 * stall the process by design: --help (GOption prints and calls exit()) and
 * 'stats' (it may be asked for a million dungeons).  The output always goes
 * to a folder that does not exist, so nothing is written and a valid
 * command line stops at the output, after every check and the generation. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

int undercroft_main(int argc, char **argv);

enum { MAX_ARGS = 24 };

static gboolean kept_out(const char *arg)
{
    return !strcmp(arg, "-h") || !strcmp(arg, "-?") || g_str_has_prefix(arg, "--help") ||
           !strcmp(arg, "stats") || (arg[0] == '-' && arg[1] != '-' && strpbrk(arg, "h?"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memchr(data, '\0', size))
        return 0;   /* an argument cannot hold a NUL */
    char *text = g_strndup((const char *)data, size);
    char **lines = g_strsplit(text, "\n", MAX_ARGS);
    g_free(text);
    char *argv[MAX_ARGS + 4];
    int argc = 0;
    argv[argc++] = "undercroft";
    for (int i = 0; lines[i] && argc < MAX_ARGS; i++)
        if (!kept_out(lines[i]))
            argv[argc++] = lines[i];
    argv[argc++] = "-o";
    argv[argc++] = "/nonexistent-undercroft-fuzz/out.json";
    argv[argc] = NULL;
    /* main() reports on stderr: keep the fuzzer's output readable. */
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    undercroft_main(argc, argv);
    fclose(stderr);
    stderr = saved;
    g_strfreev(lines);
    return 0;
}
