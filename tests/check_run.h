/* The one main() every Check suite shares: run, report, exit status. */
#ifndef UCR_CHECK_RUN_H
#define UCR_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int ucr_check_run(Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
