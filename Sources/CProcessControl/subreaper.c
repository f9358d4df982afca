#include "CProcessControl.h"

#ifdef __linux__
#include <sys/prctl.h>

int process_control_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}
#else
int process_control_become_subreaper(void) {
    return -1;
}
#endif
