// Linux calls and constants that Glibc's Swift module does not expose: epoll, eventfd, and a few
// socket and thread details. No feature macros here: the header must see the system headers as
// Glibc's module does, or Foundation and this module disagree about their types.
#ifndef CEPOLL_H
#define CEPOLL_H

#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/tcp.h>
#include <netinet/in.h>

// Flag values as plain integers: the EPOLL_EVENTS enum imports awkwardly into Swift.
static const unsigned int cepoll_in = EPOLLIN;
static const unsigned int cepoll_out = EPOLLOUT;
static const unsigned int cepoll_exclusive = EPOLLEXCLUSIVE;

// Socket types, which Glibc's Swift module imports as an enum of its own.
static const int csock_stream = SOCK_STREAM;
static const int csock_nonblock = SOCK_NONBLOCK;
static const int csock_cloexec = SOCK_CLOEXEC;

/// accept4 with the peer's address (non-blocking, close-on-exec); Glibc's transparent-union
/// argument does not import into Swift.
int cepoll_accept(int fd, struct sockaddr_storage *peer);

/// Names a thread (shown by `top -H` and debuggers); a GNU extension Glibc's module hides.
int cepoll_set_thread_name(pthread_t thread, const char *name);

#endif
