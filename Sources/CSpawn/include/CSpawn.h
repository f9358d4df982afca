#ifndef CSPAWN_H
#define CSPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` in `directory` (the current one when NULL), its
/// standard input, output and error being `input`, `output` and `error`, and no other
/// descriptor of this process: every one from 3 up is closed in the child, whatever its
/// close-on-exec flag. Signals start with their default actions and none blocked. With
/// `new_session` non-zero the child leads a session of its own (`setsid`): no signal sent to
/// this process's group or terminal reaches it. Returns 0 and sets `pid`, or an `errno` value.
int cspawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
           int input, int output, int error, int new_session);

#endif
