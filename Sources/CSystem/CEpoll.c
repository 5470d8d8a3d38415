#define _GNU_SOURCE
#include <pthread.h>
#include <sys/socket.h>
#include "CSystem.h"

int cepoll_accept(int fd, struct sockaddr_storage *peer) {
    socklen_t length = sizeof(*peer);
    return accept4(fd, (struct sockaddr *)peer, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int cepoll_set_thread_name(pthread_t thread, const char *name) {
    return pthread_setname_np(thread, name);
}
