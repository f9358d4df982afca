#ifndef C_PROCESS_CONTROL_H
#define C_PROCESS_CONTROL_H

/// Makes the calling process the reaper of its orphaned descendants (Linux's
/// PR_SET_CHILD_SUBREAPER); returns 0 on success, -1 elsewhere or on failure. prctl is
/// variadic, which Swift cannot call.
int process_control_become_subreaper(void);

#endif
