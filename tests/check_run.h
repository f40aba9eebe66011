/* The one main() every Check suite shares: run, report, exit status. */
#ifndef UCR_CHECK_RUN_H
#define UCR_CHECK_RUN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

static inline int ucr_check_run(Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    /* A run that rewrote golden traces has compared them with themselves:
     * it never passes, so a regeneration is always read and run again. */
    if (getenv("UCR_GOLDEN_UPDATE")) {
        fprintf(stderr, "UCR_GOLDEN_UPDATE: golden traces rewritten, nothing compared — review `git diff "
                        "tests/golden`, then run again without it\n");
        return EXIT_FAILURE;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
