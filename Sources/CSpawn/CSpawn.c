#define _GNU_SOURCE
#include "CSpawn.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>

int cspawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
           int input, int output, int error, int new_session) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    const int sources[3] = {input, output, error};
    for (int target = 0; target < 3 && result == 0; target++) {
        if (sources[target] != target) result = posix_spawn_file_actions_adddup2(&actions, sources[target], target);
    }
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#if defined(__APPLE__)
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
    for (int target = 0; target < 3 && result == 0; target++) {
        if (sources[target] == target) result = posix_spawn_file_actions_addinherit_np(&actions, target);
    }
#else
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    if (new_session) {
#ifdef POSIX_SPAWN_SETSID
        flags |= POSIX_SPAWN_SETSID;
#else
        result = ENOTSUP;
#endif
    }
    if (result == 0 && directory != NULL) result = posix_spawn_file_actions_addchdir_np(&actions, directory);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &all);
    if (result == 0) result = posix_spawnattr_setflags(&attributes, flags);
    if (result == 0) result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}
